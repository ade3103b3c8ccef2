/**
 * The holds' sweep in the one job system (docs/decisions/antifraud.md#antifraud-and-the-trusted-person and
 * docs/decisions/jobs.md#one-job-system): once a minute, cluster-wide (the queue's cron makes one job per
 * minute whatever the instances), holds past their time return their money and the trusted person's due
 * changes are written and told. Each step is once by its row lock, so a job run twice changes nothing more.
 */
import type { AppContext } from '../../context.ts';
import { applyDueTrustedChanges } from '../antifraud/index.ts';
import { expireDueHolds } from './service.ts';

/** One pass of the sweep: what the job runs, and what tests call with the clock moved. */
export async function sweepHolds(ctx: AppContext): Promise<{ expired: number; trusted: number }> {
  return { expired: await expireDueHolds(ctx), trusted: await applyDueTrustedChanges(ctx) };
}

export function defineHoldJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: 'holds-sweep',
    cron: '* * * * *',
    retryLimit: 3,
    run: async () => {
      await sweepHolds(ctx);
    },
  });
}
