/**
 * Money is an integer count of minor units (bigint) with its currency beside it.
 * Conversion to and from decimal strings happens only at the edges: the wire, input, display.
 */

/** ISO 4217 minor-unit exponents of the currencies the wallet knows. */
export const CURRENCY_EXPONENTS = {
  RUB: 2,
  USD: 2,
  EUR: 2,
  IDR: 2,
  JPY: 0,
  GBP: 2,
} as const;

export type CurrencyCode = keyof typeof CURRENCY_EXPONENTS;

/** Currencies a person can open an account in (docs/product.md#business-constants-and-limits). */
export const ACCOUNT_CURRENCIES = ['RUB', 'USD', 'EUR', 'IDR'] as const;
export type AccountCurrency = (typeof ACCOUNT_CURRENCIES)[number];

/** Top-up and withdrawal are fixed to RUB (docs/product.md#business-constants-and-limits). */
export const CASH_CURRENCY = 'RUB' as const;

/**
 * Currency symbols of docs/product.md#business-constants-and-limits; any other currency shows the generic
 * sign.
 */
const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', RUB: '₽', JPY: '¥', GBP: '£' };
export function currencySymbol(code: string): string {
  return SYMBOLS[code] ?? '¤';
}

export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(CURRENCY_EXPONENTS, code);
}

/**
 * A stored currency code as the contract's: one it does not know reads as the rouble, so that a
 * single odd row shows roubles' digits rather than failing a whole answer.
 */
export function knownCurrency(code: string | null | undefined): CurrencyCode {
  return code && isCurrencyCode(code) ? code : CASH_CURRENCY;
}

export function exponentOf(code: CurrencyCode): number {
  return CURRENCY_EXPONENTS[code];
}

/** A decimal amount as written by a person or on the wire: digits, an optional point and fraction. */
const DECIMAL = /^(0|[1-9]\d{0,17})(?:[.,](\d{1,18}))?$/;

export type ParseAmountError =
  | 'AMOUNT_INVALID'
  | 'AMOUNT_TOO_PRECISE'
  | 'AMOUNT_NOT_POSITIVE'
  | 'AMOUNT_TOO_LARGE';

/** Largest amount in minor units we accept: well inside BIGINT and inside JS safe integers. */
export const MAX_MINOR = 10n ** 15n;

/**
 * Parses a decimal string into minor units. A float never enters: the string is split at the point.
 * Returns an error name instead of throwing, so callers map it to the user's language.
 */
export function parseAmount(
  input: string,
  currency: CurrencyCode,
): { ok: true; minor: bigint } | { ok: false; error: ParseAmountError } {
  const text = input.trim().replace(/\s+/g, '');
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, error: 'AMOUNT_INVALID' };
  const exponent = exponentOf(currency);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return { ok: false, error: 'AMOUNT_TOO_PRECISE' };
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  if (minor <= 0n) return { ok: false, error: 'AMOUNT_NOT_POSITIVE' };
  if (minor > MAX_MINOR) return { ok: false, error: 'AMOUNT_TOO_LARGE' };
  return { ok: true, minor };
}

/** Formats minor units as the wire's decimal string with the currency's digits: 150000n RUB -> "1500.00". */
export function formatAmount(minor: bigint, currency: CurrencyCode): string {
  const exponent = exponentOf(currency);
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  if (exponent === 0) return `${negative ? '-' : ''}${abs}`;
  const scale = 10n ** BigInt(exponent);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(exponent, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/**
 * Sign of a wire amount string, for display rules (docs/product.md#states-and-transitions): zero, negative or
 * positive.
 */
export function amountSign(amount: string): -1 | 0 | 1 {
  const text = amount.trim();
  if (/^-/.test(text)) return /[1-9]/.test(text) ? -1 : 0;
  return /[1-9]/.test(text) ? 1 : 0;
}

const GROUP = { ru: '\u00a0', en: ',' } as const;
const DECIMAL_MARK = { ru: ',', en: '.' } as const;

/**
 * A wire amount as a person reads it, regrouped as text, never through a float: "1234567.50" ->
 * "1 234 567,50" (ru, no-break spaces) or "1,234,567.50" (en); a minus becomes the minus sign.
 */
export function formatAmountText(amount: string, language: 'ru' | 'en' = 'ru'): string {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP[language]);
  const minus = sign === '-' ? '\u2212' : '';
  return `${minus}${grouped}${fraction ? DECIMAL_MARK[language] + fraction : ''}`;
}

/**
 * A wire amount as an amount field shows it for editing, in the language's decimal mark and without
 * grouping (the field's parser takes both marks): "1500.00" -> "1500,00" (ru), "1500.00" (en).
 */
export function amountForInput(amount: string, language: 'ru' | 'en' = 'ru'): string {
  return language === 'ru' ? amount.replace('.', ',') : amount;
}

/**
 * Money as the app shows it, on screen and in the server's notifications: "1500.00" + RUB ->
 * "1 500,00 ₽"; English puts the symbol first: "$1,500.00".
 */
export function formatMoney(amount: string, currency: string, language: 'ru' | 'en' = 'ru'): string {
  const symbol = currencySymbol(currency);
  const text = formatAmountText(amount, language);
  if (language === 'en') {
    return text.startsWith('\u2212') ? `\u2212${symbol}${text.slice(1)}` : `${symbol}${text}`;
  }
  return `${text}\u00a0${symbol}`;
}
