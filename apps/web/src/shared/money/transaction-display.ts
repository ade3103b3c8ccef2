/**
 * How a transaction shows (docs/product.md#states-and-transitions): by the sign of its amount. Zero is an
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

/**
 * The sign prefix of docs/product.md#states-and-transitions: '' for zero, '-' for negative, '+' for positive.
 */
export function signPrefix(amount: string): '' | '-' | '+' {
  const sign = amountSign(amount);
  if (sign === 0) return '';
  return sign < 0 ? '-' : '+';
}

/**
 * A stored card mask as people read it: '411111******1111' -> '4111 11•• •••• 1111', wherever it
 * stands in a text (a history row's description, a receipt's card).
 */
export function readableCardMasks(text: string): string {
  return text.replace(/\b(\d{6})(\*{2,9})(\d{4})\b/g, (_whole, first: string, stars: string, last: string) =>
    `${first}${'•'.repeat(stars.length)}${last}`.replace(/(.{4})(?=.)/g, '$1 '),
  );
}

type HoldStatus =
  | 'held'
  | 'awaiting_approval'
  | 'released'
  | 'cancelled'
  | 'expired'
  | 'declined'
  | 'refused';

/**
 * What a row says of its status, or null when it is simply done: a held operation's hold while it is
 * open or when it ended without the money leaving, else the money's own status.
 */
export function operationStatus(operation: {
  status: 'pending' | 'complete' | 'failed';
  hold?: { status: HoldStatus };
}): { key: `transactions.status.${string}`; tone: 'pending' | 'failed' | 'held' } | null {
  const hold = operation.hold?.status;
  if (hold === 'held' || hold === 'awaiting_approval')
    return { key: `transactions.status.${hold}`, tone: 'held' };
  if (hold && hold !== 'released') return { key: `transactions.status.${hold}`, tone: 'failed' };
  if (operation.status === 'complete') return null;
  return { key: `transactions.status.${operation.status}`, tone: operation.status };
}
