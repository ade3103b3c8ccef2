/**
 * One deterministic pass over the payouts' background work, for tests and the chaos and cluster
 * suites (which run with SANDBOX_PAYOUT_DELAY_MS=0 and the job system off): the sandbox's due
 * settlements first, then open payouts whose check time has come. In a running server the same work
 * is the job system's (jobs.ts and the sandbox provider's queue, docs/decisions/jobs.md#one-job-system).
 */
import type { AppContext } from '../../context.ts';
import { reconcilePayouts } from './provider.ts';

/** Answers how many payouts it settled. */
export async function runPayoutWorkerOnce(ctx: AppContext): Promise<number> {
  const delivered = ctx.payouts.runDue ? await ctx.payouts.runDue() : 0;
  return delivered + (await reconcilePayouts(ctx));
}
