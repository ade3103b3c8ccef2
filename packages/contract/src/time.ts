/**
 * Dates and times as a person reads them, in the app, the documents and the public verify page
 * alike (docs/decisions/language-and-format.md#language-numbers-time-and-controls): one time zone, Moscow,
 * named after the time, and one format.
 * Intl with the zone given, never the reader's device zone, so a server and a phone print the same.
 */
export type DateLanguage = 'ru' | 'en';

/** The wallet's time zone: every time a person reads is Moscow time. */
export const WALLET_TIME_ZONE = 'Europe/Moscow';
/** How the zone is named after a time. */
export const TIME_ZONE_NAME: Record<DateLanguage, string> = { ru: 'МСК', en: 'MSK' };

const LOCALE: Record<DateLanguage, string> = { ru: 'ru-RU', en: 'en-GB' };
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(value: string | Date, language: DateLanguage, withTime: boolean) {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const key = `${language}:${withTime}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALE[language], {
      timeZone: WALLET_TIME_ZONE,
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
    });
    formatters.set(key, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  return parts;
}

function dayText(parts: Record<string, string>, language: DateLanguage): string {
  return language === 'ru'
    ? `${parts.day} ${parts.month} ${parts.year} г.`
    : `${parts.day} ${parts.month} ${parts.year}`;
}

/** A day: "22 ноября 2026 г." (ru), "22 November 2026" (en); Moscow's day. Empty for an invalid date. */
export function formatDate(value: string | Date, language: DateLanguage = 'ru'): string {
  const parts = partsOf(value, language, false);
  return parts ? dayText(parts, language) : '';
}

/** A moment: "22 ноября 2026 г., 16:05 МСК" (ru), "22 November 2026, 16:05 MSK" (en). Empty for an invalid date. */
export function formatDateTime(value: string | Date, language: DateLanguage = 'ru'): string {
  const parts = partsOf(value, language, true);
  if (!parts) return '';
  return `${dayText(parts, language)}, ${parts.hour}:${parts.minute} ${TIME_ZONE_NAME[language]}`;
}

/** A calendar date of the wire ("2026-11-24", a period's bound) as a day: "24 ноября 2026 г.". */
export function formatCalendarDate(date: string, language: DateLanguage = 'ru'): string {
  // Noon in Moscow is the same calendar day whatever the zone's offset.
  return formatDate(new Date(`${date}T12:00:00+03:00`), language);
}

/** Minutes the wallet's time zone is ahead of UTC at a moment (Moscow: 180). */
function offsetMinutes(at: Date): number {
  const name = new Intl.DateTimeFormat('en-GB', { timeZone: WALLET_TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  return (Number(match[2]) * 60 + Number(match[3])) * (match[1] === '-' ? -1 : 1);
}

/** The wallet zone's wall clock, sortable: "2026-11-25 18:19:26" (a CSV's time, a form's value). */
export function walletClock(at: Date): string {
  return new Date(at.getTime() + offsetMinutes(at) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A wall clock of the wallet's zone ("2026-11-25T18:19", a datetime-local value) as a moment. */
export function fromWalletClock(local: string): Date {
  const asUtc = new Date(`${local.replace(' ', 'T')}Z`);
  return new Date(asUtc.getTime() - offsetMinutes(asUtc) * 60_000);
}

/**
 * The moment a calendar day ("2026-11-24") starts in the wallet's time zone: the bound of a period
 * a person picks by days (history, statistics, statements), so the days are the ones they read.
 */
export function dayStart(date: string): Date {
  return fromWalletClock(`${date}T00:00:00`);
}
