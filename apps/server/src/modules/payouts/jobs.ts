/**
 * A payout's job (docs/decisions/jobs.md#one-job-system): after the money is held and the payout handed to
 * the provider, a job on `payout-check` asks the provider about it when a webhook may have been lost, and
 * again while it is pending. A provider that cannot answer fails the job: retried with backoff, then
 * dead, where an admin retries it; the settlement happens once whatever runs it (settlePayout, under
 * the payout's row lock). Open payouts get their job again when the system starts (a crash between
 * the commit and the job's sending).
 */
import type { AppContext } from '../../context.ts';
import { checkPayout, openPayouts, sendPayoutCheck } from './provider.ts';
import { PAYOUT_QUEUE } from './store.ts';

interface PayoutJob {
  payout_id: string;
}

export function definePayoutJobs(ctx: AppContext): void {
  ctx.jobs.define<PayoutJob>({
    name: PAYOUT_QUEUE,
    policy: 'stately',
    run: async ({ payout_id }) => {
      if ((await checkPayout(ctx, payout_id)) === 'pending')
        await sendPayoutCheck(ctx, payout_id, ctx.config.PAYOUT_CHECK_SECONDS * 1000);
    },
    onStart: async () => {
      const now = ctx.clock.now().getTime();
      for (const payout of await openPayouts(ctx))
        await sendPayoutCheck(ctx, payout.id, (payout.next_check_at?.getTime() ?? now) - now);
    },
  });
}
