/** The building blocks every call's shapes are made of: ids, phones, amounts, dates, pages. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { ID_PATTERN } from '../ids.ts';
import { ACCOUNT_CURRENCIES, CURRENCY_EXPONENTS } from '../money.ts';
import { PlainText } from '../plain-text.ts';

/** E.164: a plus, then 8 to 15 digits; the app sends dial code plus digits only. */
export const Phone = z.string().regex(/^\+[1-9]\d{7,14}$/);
/** A participant bank of СБП as the system names it: 12 digits (docs/decisions/sbp.md). */
export const SbpBankId = z.string().regex(/^\d{12}$/);
export const SbpBank = z.object({ id: SbpBankId, name: z.string() });
/** Where a saved payee or a repeated transfer goes: a wallet user, or a bank by СБП. */
export const PayeeKind = z.enum(['wallet', 'sbp']);
export const Email = z.email().max(254);
/** A person's name: plain text (plain-text.ts), letters and a few joiners only. */
export const PersonName = PlainText(100).regex(/^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u);
export const Code = z.string().regex(/^\d{4}$/);
export const Pin = z.string().regex(/^\d{4}$/);
export const CurrencyCodeSchema = z.enum(
  Object.keys(CURRENCY_EXPONENTS) as [keyof typeof CURRENCY_EXPONENTS],
);
export const AccountCurrencySchema = z.enum(ACCOUNT_CURRENCIES);
/** A decimal string on the wire ("1500.00"); the currency decides how many digits are allowed. */
export const Amount = z.string().min(1).max(32);
/** Amounts in answers: signed decimal strings with the currency's digits. */
export const AmountOut = z.string();
/** An id: a UUID written 8-4-4-4-12 (ids.ts). */
export const Id = z.string().regex(ID_PATTERN);
export const DateTime = z.iso.datetime({ offset: true });
/**
 * The dates a query may name: from 1970 to 2199. Outside it nothing exists to find, and the
 * databases disagree (year 0 and years past 9999 broke one of them), so such a date is a 400.
 */
export const DATE_MIN = '1970-01-01T00:00:00.000Z';
export const DATE_MAX = '2199-12-31T23:59:59.999Z';
const inDateRange = (text: string) => {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(time) && time >= Date.parse(DATE_MIN) && time <= Date.parse(DATE_MAX);
};
/** A date-range bound in a query: a date (YYYY-MM-DD) or a date-time, within DATE_MIN..DATE_MAX. */
export const DateBound = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .refine(inDateRange, 'must be between 1970 and 2199');
/**
 * Every date a request names is bounded (docs/decisions/security-rules.md#hardening-third-round): a day, 1970
 * to 2199.
 */
export const DayBound = z.iso.date().refine(inDateRange, 'must be between 1970 and 2199');
/** A date-time a request names, 1970 to 2199. */
export const DateTimeBound = z.iso
  .datetime({ offset: true })
  .refine(inDateRange, 'must be between 1970 and 2199');
/** A birth date: from 1900 to 2199 (the age rules are the identification's). */
export const BirthDate = z.iso
  .date()
  .refine((text) => text >= '1900-01-01' && text <= DATE_MAX.slice(0, 10), 'must be a date after 1900');
export const Cursor = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);
export const Limit = z.string().regex(/^(?:[1-9]|[1-9]\d|100)$/);

export const Status = z.enum(['success', 'error']);
export const StatusMessage = z.object({ status: z.literal('success'), message: z.string().optional() });
export const ErrorBody = z.object({ status: z.literal('error'), code: z.string(), message: z.string() });
export const Empty = z.strictObject({});

export function page<T extends z.ZodType>(item: T) {
  return z.object({ results: z.array(item), next: z.string().nullable() });
}
