/**
 * Dates on screen: the contract's one format in Moscow time, the zone named after the time
 * ("22 ноября 2026 г., 16:05 МСК"), as the documents and the verify page print them. date-fns'
 * locales stay for the calendar of the date range picker.
 */
import type { Locale } from 'date-fns';
import { enGB } from 'date-fns/locale/en-GB';
import { ru } from 'date-fns/locale/ru';

export { formatDate, formatDateTime } from '@e-wallet/contract/time';

const LOCALES: Record<'ru' | 'en', Locale> = { ru, en: enGB };

export function dateLocale(language: 'ru' | 'en' = 'ru'): Locale {
  return LOCALES[language];
}
