/**
 * Money as the back office's API writes it: minor units as the contract's decimal string, in the
 * row's currency (an unknown code is shown as roubles' digits rather than failing a whole page).
 */
import { formatAmount, knownCurrency } from '@e-wallet/contract';

export function moneyText(minor: bigint | string, currency: string): string {
  return formatAmount(BigInt(minor), knownCurrency(currency));
}
