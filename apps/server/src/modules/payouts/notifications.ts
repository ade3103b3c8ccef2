/**
 * A real payouts provider's own notification (YooKassa's): the state its API answered for the payout
 * named, applied to the payout we sent under that provider id. Nothing else in the body is believed.
 */
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { PayoutState } from '../../providers/payouts/payouts-provider.ts';
import { settlePayout } from './provider.ts';
import { REASON_PROVIDER_REJECTED } from './store.ts';

export async function applyPayoutNotification(ctx: AppContext, state: PayoutState): Promise<void> {
  const { rows } = await ctx.db.query<{ id: string }>(
    'SELECT id FROM payouts WHERE provider = $1 AND provider_ref = $2',
    [ctx.payouts.id, state.providerId],
  );
  // Not ours (yet): the provider repeats its notification, and the worker asks about open payouts anyway.
  if (!rows[0]) throw new AppError('OPERATION_NOT_FOUND', {}, 'payout notification for an unknown payout');
  if (state.status === 'succeeded') await settlePayout(ctx, rows[0].id, { outcome: 'succeeded' });
  if (state.status === 'canceled')
    await settlePayout(ctx, rows[0].id, {
      outcome: 'failed',
      reason: state.reason ?? REASON_PROVIDER_REJECTED,
    });
}
