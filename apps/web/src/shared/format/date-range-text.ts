/**
 * A day range in words, short enough for a button: "1 — 22 ноября 2026 г.", "28 октября — 3 ноября
 * 2026 г.", or both dates in full across years. The range is of calendar days as the picker holds
 * them, so they are written as they are, not moved to another zone; month names from date-fns.
 */
import { format, isSameDay, isSameMonth, isSameYear } from 'date-fns';
import { dateLocale } from './date.ts';

/** A picked calendar day in full: "22 ноября 2026 г.", "22 November 2026". */
export function formatPickedDay(day: Date, language: 'ru' | 'en' = 'ru'): string {
  return format(day, language === 'ru' ? "d MMMM yyyy 'г.'" : 'd MMMM yyyy', {
    locale: dateLocale(language),
  });
}

export function formatDayRange(range: { from: Date; to: Date }, language: 'ru' | 'en' = 'ru'): string {
  const locale = dateLocale(language);
  const { from, to } = range;
  if (isSameDay(from, to)) return formatPickedDay(from, language);
  if (!isSameYear(from, to)) return `${formatPickedDay(from, language)} — ${formatPickedDay(to, language)}`;
  const start = isSameMonth(from, to) ? format(from, 'd', { locale }) : format(from, 'd MMMM', { locale });
  return `${start} — ${formatPickedDay(to, language)}`;
}
