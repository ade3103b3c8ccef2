/**
 * A day range in words, short enough for a button: "1 — 22 ноября 2026 г.", "28 октября — 3 ноября
 * 2026 г.", or both dates in full across years. Russian month names from date-fns' ru locale.
 */
import { format, isSameDay, isSameMonth, isSameYear } from 'date-fns';
import { dateLocale, formatDate } from './date.ts';

export { formatDate };

export function formatDayRange(range: { from: Date; to: Date }, language: 'ru' | 'en' = 'ru'): string {
  const locale = dateLocale(language);
  const { from, to } = range;
  if (isSameDay(from, to)) return formatDate(from, language);
  if (!isSameYear(from, to)) return `${formatDate(from, language)} — ${formatDate(to, language)}`;
  const start = isSameMonth(from, to) ? format(from, 'd', { locale }) : format(from, 'd MMMM', { locale });
  return `${start} — ${formatDate(to, language)}`;
}
