/**
 * The payouts worker of one server instance: settles the sandbox's due payouts (through the signed
 * webhook) and asks the provider about open payouts whose check time has come. Every instance runs one;
 * rows are claimed with FOR UPDATE SKIP LOCKED, so two instances never handle one payout at once.
 *
 *   startPayoutWorker(ctx)  started by create-context.ts, stopped by its stop()
 *   runPayoutWorkerOnce(ctx)  one deterministic pass (tests run with SANDBOX_PAYOUT_DELAY_MS=0 and no timer)
 */
import type { AppContext } from '../../context.ts';
import { reconcilePayouts } from './service.ts';

export const PAYOUT_WORKER_INTERVAL_MS = 500;

/** One pass: due sandbox settlements first, then open payouts to ask about. Answers how many it settled. */
export async function runPayoutWorkerOnce(ctx: AppContext): Promise<number> {
  const delivered = ctx.payouts.runDue ? await ctx.payouts.runDue() : 0;
  return delivered + (await reconcilePayouts(ctx));
}

export interface PayoutWorker {
  stop(): Promise<void>;
}

/**
 * Runs a pass every interval, never two at once. Not started in tests that settle by hand
 * (WALLET_ENV=test with SANDBOX_PAYOUT_DELAY_MS=0), so they stay deterministic.
 */
export function startPayoutWorker(ctx: AppContext, intervalMs = PAYOUT_WORKER_INTERVAL_MS): PayoutWorker {
  if (ctx.config.WALLET_ENV === 'test' && ctx.config.SANDBOX_PAYOUT_DELAY_MS === 0) {
    return { stop: async () => {} };
  }
  let running: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = runPayoutWorkerOnce(ctx)
      .then(() => undefined)
      .catch((error: unknown) => {
        console.warn(`payout worker pass failed: ${(error as Error).message}`);
      })
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
