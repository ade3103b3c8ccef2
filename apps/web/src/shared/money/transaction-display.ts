/**
 * How a transaction shows (docs/product.md section 4): by the sign of its amount. Zero is an
 * 'operation', negative a 'withdrawal' (red, '-'), positive a 'topup' ('+'). The sign is read
 * from the decimal string, never through a float.
 */
import { amountSign } from '@e-wallet/contract/money';

export type TransactionLook = 'operation' | 'withdrawal' | 'topup';

export function transactionLook(amount: string): TransactionLook {
  const sign = amountSign(amount);
  if (sign === 0) return 'operation';
  return sign < 0 ? 'withdrawal' : 'topup';
}

/** The sign prefix of spec section 4: '' for zero, '-' for negative, '+' for positive. */
export function signPrefix(amount: string): '' | '-' | '+' {
  const sign = amountSign(amount);
  if (sign === 0) return '';
  return sign < 0 ? '-' : '+';
}
