/**
 * The arithmetic of an exchange, in integers only
 * (docs/decisions/exchange.md#exchange-between-ones-own-accounts). Rates are roubles per unit, kept as
 * integers scaled by 10^SCALE; amounts are minor units.
 *   fee     = ceil(amount * spread)             in the from-currency: the wallet's fee, rounded up
 *   receive = floor((amount - fee) * rate)      in the to-currency: rounded down
 * so rounding is never in the person's favour; each figure differs from the exact one by less than a
 * minor unit.
 */
import { type CurrencyCode, exponentOf } from '@e-wallet/contract';

export const SCALE = 12;
const ONE = 10n ** BigInt(SCALE);

/** A decimal string as an integer scaled by 10^SCALE (digits beyond SCALE are cut off). */
export function scaled(text: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  return BigInt(match[1]!) * ONE + BigInt((match[2] ?? '').slice(0, SCALE).padEnd(SCALE, '0'));
}

/** A scaled integer as a decimal string without trailing zeros. */
export function decimal(value: bigint): string {
  const whole = value / ONE;
  const fraction = (value % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** The spread setting ("1.5") as basis points (150). */
export function basisPoints(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

export interface Pair {
  from: CurrencyCode;
  to: CurrencyCode;
  /** Roubles per unit of each currency, scaled. */
  fromRub: bigint;
  toRub: bigint;
  spreadBp: bigint;
}

/** Units of `to` for one unit of `from`, scaled, rounded down (what is shown and kept with a quote). */
export function crossRate(pair: Pair): bigint {
  return (pair.fromRub * ONE) / pair.toRub;
}

export function feeOf(pair: Pair, amount: bigint): bigint {
  return (amount * pair.spreadBp + 9_999n) / 10_000n;
}

/** What arrives for `amount` given (minor units of `from`), the fee taken first. */
export function receiveOf(pair: Pair, amount: bigint): bigint {
  const net = amount - feeOf(pair, amount);
  if (net <= 0n) return 0n;
  const up = 10n ** BigInt(exponentOf(pair.to));
  const down = 10n ** BigInt(exponentOf(pair.from));
  return (net * pair.fromRub * up) / (pair.toRub * down);
}

/** The least amount of `from` for which at least `target` of `to` arrives. */
export function amountFor(pair: Pair, target: bigint): bigint {
  const up = 10n ** BigInt(exponentOf(pair.to));
  const down = 10n ** BigInt(exponentOf(pair.from));
  const net = (target * pair.toRub * down + pair.fromRub * up - 1n) / (pair.fromRub * up);
  let amount = (net * 10_000n + (10_000n - pair.spreadBp) - 1n) / (10_000n - pair.spreadBp);
  if (amount < 1n) amount = 1n;
  while (receiveOf(pair, amount) < target) amount += 1n;
  while (amount > 1n && receiveOf(pair, amount - 1n) >= target) amount -= 1n;
  return amount;
}
