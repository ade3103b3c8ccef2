import type { BodyOut } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { postHold, voidHold } from '../../ledger/index.ts';
import {
  type PayoutDestination,
  PayoutRejected,
  type PayoutState,
  PayoutUnavailable,
} from '../../providers/payouts/payouts-provider.ts';

import {
  COLUMNS,
  checkAfterMs,
  findPayout,
  PAYOUT_QUEUE,
  PAYOUT_SUBMIT_GRACE_MS,
  type PayoutRow,
  REASON_NOT_SUBMITTED,
  REASON_PROVIDER_REJECTED,
} from './store.ts';

/** Records what the provider answered about an accepted payout; a final answer settles it. */
export async function applyProviderState(
  ctx: AppContext,
  payoutId: string,
  state: PayoutState,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.query(
    `UPDATE payouts SET provider_ref = coalesce(provider_ref, $2),
       status = CASE WHEN status = 'created' THEN 'pending' ELSE status END,
       updated_at = $3, next_check_at = CASE WHEN status IN ('created', 'pending') THEN $4 ELSE next_check_at END
     WHERE id = $1`,
    [payoutId, state.providerId, now, new Date(now.getTime() + checkAfterMs(ctx))],
  );
  if (state.status === 'succeeded') await settlePayout(ctx, payoutId, { outcome: 'succeeded' });
  if (state.status === 'canceled')
    await settlePayout(ctx, payoutId, {
      outcome: 'failed',
      reason: state.reason ?? REASON_PROVIDER_REJECTED,
    });
}

/**
 * Handed to the provider, then its job: asked about when a webhook may have been lost
 * (docs/decisions/jobs.md#one-job-system).
 */
export async function handOver(
  ctx: AppContext,
  payout: PayoutRow,
  destination: PayoutDestination,
  description: string,
): Promise<void> {
  const answered = await submitPayout(ctx, payout, destination, description);
  await sendPayoutCheck(ctx, payout.id, answered ? checkAfterMs(ctx) : PAYOUT_SUBMIT_GRACE_MS);
}

/**
 * Hands the payout to the provider, after the hold was committed. A refusal releases the hold at once;
 * an unknown outcome (network, 5xx) leaves the payout 'created' for its job to find out (answers false).
 * Never throws: the user's request has already succeeded (the money is held, the receipt says pending).
 */
export async function submitPayout(
  ctx: AppContext,
  payout: PayoutRow,
  destination: PayoutDestination,
  description: string,
): Promise<boolean> {
  try {
    const state = await ctx.payouts.payout({
      reference: payout.id,
      idempotenceKey: `payout:${payout.id}`,
      amount: payout.amount,
      currency: payout.currency,
      destination,
      description,
    });
    await applyProviderState(ctx, payout.id, state);
    return true;
  } catch (error) {
    if (error instanceof PayoutRejected) {
      await settlePayout(ctx, payout.id, { outcome: 'failed', reason: REASON_PROVIDER_REJECTED });
      return true;
    }
    // Unknown outcome: the job asks the provider later (error messages never carry the card number).
    const detail = error instanceof PayoutUnavailable ? error.message : (error as Error).name;
    console.warn(`payout ${payout.id} not confirmed by the provider: ${detail}`);
    return false;
  }
}

/** Puts a payout's check on its queue (one waiting per payout); a failure to do so only warns. */
export async function sendPayoutCheck(ctx: AppContext, payoutId: string, afterMs: number): Promise<void> {
  await ctx.jobs
    .send(
      PAYOUT_QUEUE,
      { payout_id: payoutId },
      {
        startAfterSeconds: Math.max(0, afterMs / 1000),
        singletonKey: payoutId,
      },
    )
    .catch((error: Error) => console.warn(`payout ${payoutId}: check not queued (${error.message})`));
}

/**
 * Settles a payout once: 'succeeded' posts its hold, 'failed' voids it; `alongside` writes with it. A repeat of the same outcome
 * changes nothing; a contradicting late outcome is ignored (a settled payout never changes).
 * Answers whether this call changed anything.
 */
export async function settlePayout(
  ctx: AppContext,
  payoutId: string,
  result: { outcome: 'succeeded' } | { outcome: 'failed'; reason: string },
  providerRef?: string,
  alongside?: (q: Queryable, payout: PayoutRow) => Promise<void>,
): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const payout = await findPayout(q, payoutId, true);
    if (!payout) throw new AppError('OPERATION_NOT_FOUND');
    if (payout.status === 'succeeded' || payout.status === 'failed') return false;
    // What else the settlement writes (an operator's audit line), in its transaction.
    await alongside?.(q, payout);
    const at = ctx.clock.now();
    // The fee goes the payout's way: taken when it is paid, returned with it when it fails.
    const settle = result.outcome === 'succeeded' ? postHold : voidHold;
    await settle(q, payout.hold_transfer_id, at);
    if (payout.fee_transfer_id) await settle(q, payout.fee_transfer_id, at);
    await q.query(
      `UPDATE payouts SET status = $2, failure_reason = $3, provider_ref = coalesce(provider_ref, $4),
         updated_at = $5, settled_at = $5, next_check_at = NULL WHERE id = $1`,
      [payoutId, result.outcome, result.outcome === 'failed' ? result.reason : null, providerRef ?? null, at],
    );
    return true;
  });
}

/** The provider's signed callback. Unknown payouts are OPERATION_NOT_FOUND (the provider may retry). */
export async function handlePayoutWebhook(ctx: AppContext, body: BodyOut<'payoutsWebhook'>): Promise<void> {
  const payout = await findPayout(ctx.db, body.reference);
  if (!payout) throw new AppError('OPERATION_NOT_FOUND');
  // A callback must name the provider's payout we know; before we stored it, the first one tells us.
  if (payout.provider_ref !== null && payout.provider_ref !== body.payout_id)
    throw new AppError('OPERATION_NOT_FOUND', {}, 'payout id does not match the reference');
  if (body.event === 'payout.succeeded')
    await settlePayout(ctx, payout.id, { outcome: 'succeeded' }, body.payout_id);
  else
    await settlePayout(
      ctx,
      payout.id,
      { outcome: 'failed', reason: body.reason ?? REASON_PROVIDER_REJECTED },
      body.payout_id,
    );
}

/**
 * Asks the provider about an open payout and settles it when the provider has an outcome: 'settled',
 * 'pending' (ask again later) or 'closed' (settled already, or unknown). Throws when the provider
 * cannot answer, or never confirmed a payout it cannot look up (an operator's case): a job retries.
 */
export async function checkPayout(ctx: AppContext, id: string): Promise<'settled' | 'pending' | 'closed'> {
  const payout = await findPayout(ctx.db, id);
  if (!payout || payout.status === 'succeeded' || payout.status === 'failed') return 'closed';
  return checkOpenPayout(ctx, payout);
}

export async function checkOpenPayout(
  ctx: AppContext,
  payout: PayoutRow,
): Promise<'settled' | 'pending' | 'closed'> {
  let state: PayoutState | null | undefined;
  if (payout.provider_ref) state = await ctx.payouts.fetch(payout.provider_ref);
  else state = ctx.payouts.findByReference ? await ctx.payouts.findByReference(payout.id) : undefined;
  if (state === null) {
    // The provider never received it: nothing was sent, the money goes back (once the submission
    // could no longer be on its way).
    if (ctx.clock.now().getTime() - payout.created_at.getTime() < PAYOUT_SUBMIT_GRACE_MS) return 'pending';
    return (await settlePayout(ctx, payout.id, { outcome: 'failed', reason: REASON_NOT_SUBMITTED }))
      ? 'settled'
      : 'closed';
  }
  if (state === undefined)
    throw new Error(`payout ${payout.id} was never confirmed by ${payout.provider}: needs an operator`);
  if (state.status === 'pending') return 'pending';
  await applyProviderState(ctx, payout.id, state);
  return 'settled';
}

/** The open payouts of this provider and when each is due to be asked about (the jobs' start-up catch-up). */
export async function openPayouts(
  ctx: AppContext,
): Promise<Array<{ id: string; next_check_at: Date | null }>> {
  const { rows } = await ctx.db.query<{ id: string; next_check_at: Date | null }>(
    `SELECT id, next_check_at FROM payouts WHERE status IN ('created', 'pending') AND provider = $1
     ORDER BY next_check_at`,
    [ctx.payouts.id],
  );
  return rows;
}

/**
 * One pass over open payouts whose check time has come, for tests and the chaos and cluster suites
 * (runPayoutWorkerOnce): each row is claimed by pushing its time forward in a conditional UPDATE, which
 * another instance's pass re-checks once the first commits, so no two passes ask about one payout.
 * Answers how many payouts it settled.
 */
export async function reconcilePayouts(ctx: AppContext, batch = 20): Promise<number> {
  const now = ctx.clock.now();
  const { rows: due } = await ctx.db.query<PayoutRow>(
    `UPDATE payouts SET next_check_at = $2
     WHERE id IN (SELECT id FROM payouts
                  WHERE status IN ('created', 'pending') AND next_check_at <= $1 AND provider = $3
                  ORDER BY next_check_at LIMIT ${batch})
       AND status IN ('created', 'pending') AND next_check_at <= $1
     RETURNING ${COLUMNS}`,
    [now, new Date(now.getTime() + checkAfterMs(ctx)), ctx.payouts.id],
  );
  let settled = 0;
  for (const payout of due) {
    try {
      if ((await checkOpenPayout(ctx, payout)) === 'settled') settled += 1;
    } catch (error) {
      console.warn(`payout ${payout.id} check failed: ${(error as Error).message}`);
    }
  }
  return settled;
}
