/**
 * The holds' sweep as a pg-boss job (docs/decisions.md section 21), on the queue library the schedules
 * use (docs/decisions.md section 13), with the same database backends: once a minute, cluster-wide
 * (pg-boss's cron makes one job per minute whatever the instances), holds past their time return their
 * money and the trusted person's due changes are written and told. Each step is once by its row lock,
 * so a job run twice changes nothing more.
 */
import { fromPglite, PgBoss } from 'pg-boss';
import type { AppContext } from '../../context.ts';
import { applyDueTrustedChanges } from '../antifraud/index.ts';
import { expireDueHolds } from './service.ts';

const SWEEP_QUEUE = 'holds-sweep';

export interface HoldJobs {
  stop(): Promise<void>;
}

/** Whether this instance runs the job queue: SCHEDULE_JOBS, as the schedules read it. */
export function runsHoldJobs(ctx: AppContext): boolean {
  return (ctx.config.SCHEDULE_JOBS ?? (ctx.config.WALLET_ENV === 'test' ? 'off' : 'on')) === 'on';
}

function bossFor(ctx: AppContext): PgBoss {
  const common = { schema: 'pgboss' } as const;
  if (ctx.db.pglite) return new PgBoss({ ...common, db: fromPglite(ctx.db.pglite), backend: 'pglite' });
  if (!ctx.config.DATABASE_URL) throw new Error('holds: no database for the job queue');
  return new PgBoss({ ...common, connectionString: ctx.config.DATABASE_URL, max: 2 });
}

/** One pass of the sweep: what the job runs, and what tests call with the clock moved. */
export async function sweepHolds(ctx: AppContext): Promise<{ expired: number; trusted: number }> {
  return { expired: await expireDueHolds(ctx), trusted: await applyDueTrustedChanges(ctx) };
}

export async function startHoldJobs(ctx: AppContext): Promise<HoldJobs> {
  const boss = bossFor(ctx);
  boss.on('error', (error: Error) => console.warn(`hold jobs: ${error.message}`));
  await boss.start();
  await boss.createQueue(SWEEP_QUEUE, { policy: 'singleton', retryLimit: 3, retryDelay: 10 });
  await boss.schedule(SWEEP_QUEUE, '* * * * *');
  await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds: ctx.config.SCHEDULE_POLL_SECONDS }, async () => {
    await sweepHolds(ctx);
  });
  return {
    async stop() {
      await boss.stop({ graceful: true, timeout: 5_000, close: true });
    },
  };
}
