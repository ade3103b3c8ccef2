/**
 * Money on screen. Amounts arrive as decimal strings ("1500.00", "-20.50"); they are regrouped
 * as text, never through a float, and shown with the contract's currency symbol
 * (docs/product.md#business-constants-and-limits).
 */
import { amountSign, formatMoney } from '@e-wallet/contract/money';

// The contract's formatting, shared with the server's notifications.
export { formatAmountText, formatMoney } from '@e-wallet/contract/money';

/**
 * The spec's sign prefix: '' for zero, '-' for negative, '+' for positive
 * (docs/product.md#states-and-transitions).
 */
export function formatSignedMoney(amount: string, currency: string, language: 'ru' | 'en' = 'ru'): string {
  const sign = amountSign(amount);
  const unsigned = amount.replace(/^[+-]/, '');
  const body = formatMoney(unsigned, currency, language);
  return sign === 0 ? body : `${sign < 0 ? '-' : '+'}${body}`;
}
