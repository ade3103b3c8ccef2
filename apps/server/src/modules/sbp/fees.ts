/**
 * The one owner of an СБП transfer's fee (docs/decisions/sbp.md#fees): the check answers it before the
 * PIN, the transfer holds it with the payout, and the tariffs document states the same settings.
 */
import type { Config } from '../../config.ts';

type FeeSettings = Pick<Config, 'SBP_FEE_BASIS_POINTS' | 'SBP_FEE_MIN_KOPECKS'>;

/** The fee of sending `amount` kopecks: a percent rounded down, at least the minimum; 0 when none is set. */
export function sbpFee(config: FeeSettings, amount: bigint): bigint {
  const percent = (amount * BigInt(config.SBP_FEE_BASIS_POINTS)) / 10_000n;
  const minimum = BigInt(config.SBP_FEE_MIN_KOPECKS);
  return percent > minimum ? percent : minimum;
}
