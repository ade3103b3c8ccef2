/**
 * A money amount from the wire as the contract reads it (`parseAmount`), or the AppError naming what
 * is wrong with it: every call that takes an amount answers the same errors.
 */
import {
  type CurrencyCode,
  exponentOf,
  formatAmount,
  formatMoney,
  type Language,
  parseAmount,
} from '@e-wallet/contract';
import { AppError } from '../errors.ts';

export function amountOf(text: string, currency: CurrencyCode): bigint {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok)
    throw new AppError(
      parsed.error,
      parsed.error === 'AMOUNT_TOO_PRECISE' ? { digits: exponentOf(currency) } : {},
    );
  return parsed.minor;
}

/**
 * Money in a short text (an SMS, a reason): whole amounts without their zero fraction, as people
 * write them ('12 000 ₽', '₽12,000'); an amount with kopecks keeps them.
 */
export function shortMoney(minor: bigint, currency: CurrencyCode, language: Language): string {
  const amount = formatAmount(minor, currency).replace(/\.0+$/, '');
  return formatMoney(amount, currency, language);
}
