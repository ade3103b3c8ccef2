/**
 * Dates on screen: the spec's "long date with time" (section 9), in the user's time zone,
 * with Russian month names from date-fns' ru locale ("22 ноября 2026 г., 16:05").
 */
import { format, type Locale } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { ru } from 'date-fns/locale/ru';

const LOCALES: Record<'ru' | 'en', Locale> = { ru, en: enGB };

export function dateLocale(language: 'ru' | 'en' = 'ru'): Locale {
  return LOCALES[language];
}

function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Long date with time: "22 ноября 2026 г., 16:05" (ru), "22 November 2026 at 16:05" (en). */
export function formatDateTime(value: string | Date, language: 'ru' | 'en' = 'ru'): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  return format(date, language === 'ru' ? "d MMMM yyyy 'г.', HH:mm" : "d MMMM yyyy 'at' HH:mm", {
    locale: LOCALES[language],
  });
}

/** Long date: "22 ноября 2026 г." */
export function formatDate(value: string | Date, language: 'ru' | 'en' = 'ru'): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  return format(date, language === 'ru' ? "d MMMM yyyy 'г.'" : 'd MMMM yyyy', { locale: LOCALES[language] });
}
