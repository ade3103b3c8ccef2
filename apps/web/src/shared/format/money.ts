/**
 * Money on screen. Amounts arrive as decimal strings ("1500.00", "-20.50"); they are regrouped
 * as text, never through a float, and shown with the contract's currency symbol (spec section 9).
 */
import { amountSign, currencySymbol } from '@e-wallet/contract/money';

const GROUP = { ru: '\u00a0', en: ',' } as const;
const DECIMAL = { ru: ',', en: '.' } as const;

/** "1234567.50" -> "1 234 567,50" (ru) or "1,234,567.50" (en); the sign is kept as given. */
export function formatAmountText(amount: string, language: 'ru' | 'en' = 'ru'): string {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP[language]);
  const minus = sign === '-' ? '−' : '';
  return `${minus}${grouped}${fraction ? DECIMAL[language] + fraction : ''}`;
}

/** "1500.00" + RUB -> "1 500,00 ₽"; English puts the symbol first: "$1,500.00". */
export function formatMoney(amount: string, currency: string, language: 'ru' | 'en' = 'ru'): string {
  const symbol = currencySymbol(currency);
  const text = formatAmountText(amount, language);
  if (language === 'en') {
    return text.startsWith('−') ? `−${symbol}${text.slice(1)}` : `${symbol}${text}`;
  }
  return `${text}\u00a0${symbol}`;
}

/** The spec's sign prefix: '' for zero, '-' for negative, '+' for positive (spec section 4). */
export function formatSignedMoney(amount: string, currency: string, language: 'ru' | 'en' = 'ru'): string {
  const sign = amountSign(amount);
  const unsigned = amount.replace(/^[+-]/, '');
  const body = formatMoney(unsigned, currency, language);
  return sign === 0 ? body : `${sign < 0 ? '-' : '+'}${body}`;
}
