/**
 * Values as an operator reads them, formatted as the app formats them: money and phones by the
 * contract's own functions, dates in Moscow time (the wallet's day is Moscow's), a device by name
 * from its User-Agent (bowser), never the raw header.
 */
import { formatMoney } from '@e-wallet/contract/money';
import { formatPhone } from '@e-wallet/contract/phone';
import Bowser from 'bowser';
import { useTranslation } from 'react-i18next';
import type { Language } from '../i18n/i18n.ts';

export { formatMoney, formatPhone };

const MOSCOW = 'Europe/Moscow';
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: Language, withTime: boolean): Intl.DateTimeFormat {
  const key = `${language}-${withTime}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'ru-RU', {
      timeZone: MOSCOW,
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** "25 ноября 2026 г. в 19:45" in Moscow time; an em dash for none. */
export function formatDateTime(value: string | Date | null | undefined, language: Language): string {
  if (!value) return '—';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat(language, true).format(date);
}

/** A calendar date (a birth date, "1990-05-17") as words, with no time zone shift. */
export function formatDay(value: string | null | undefined, language: Language): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return value ?? '—';
  const date = new Date(`${value.slice(0, 10)}T12:00:00+03:00`);
  return dateFormat(language, false).format(date);
}

/** "Chrome 131 · macOS 14" from a User-Agent; an em dash when there is none. */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return '—';
  const parsed = Bowser.parse(userAgent);
  const major = (version: string | undefined) => version?.split('.')[0];
  const browser = [parsed.browser.name, major(parsed.browser.version)].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? major(parsed.os.version)].filter(Boolean).join(' ');
  const name = [browser, os].filter(Boolean).join(' · ');
  return name || userAgent.slice(0, 40);
}

/** The formatters bound to the chosen language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language: Language = i18n.language === 'en' ? 'en' : 'ru';
  return {
    language,
    money: (amount: string | null | undefined, currency: string) =>
      amount === null || amount === undefined ? '—' : formatMoney(amount, currency, language),
    phone: (phone: string | null | undefined) => (phone ? formatPhone(phone) : '—'),
    dateTime: (value: string | Date | null | undefined) => formatDateTime(value, language),
    day: (value: string | null | undefined) => formatDay(value, language),
    device: deviceName,
  };
}

/** A value the API names by its code (a role, a status, a kind), in the chosen language. */
export function useNames() {
  const { t } = useTranslation();
  return (group: string, code: string | null | undefined): string =>
    code === null || code === undefined || code === ''
      ? '—'
      : t(`names.${group}.${code}`, { defaultValue: code });
}
