/**
 * A money amount from the wire as the contract reads it (`parseAmount`), or the AppError naming what
 * is wrong with it: every call that takes an amount answers the same errors.
 */
import { type CurrencyCode, exponentOf, parseAmount } from '@e-wallet/contract';
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
