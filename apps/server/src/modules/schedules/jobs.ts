/**
 * The scheduled transfers' job queue: pg-boss on the server's own database (PostgreSQL, or the
 * embedded PGlite through pg-boss's PGlite backend), docs/decisions.md section 13. A period's run is
 * a job due at its time, keyed by schedule and period, fetched by one instance (SKIP LOCKED) and
 * retried after a crash; the run itself is exactly-once by its row and idempotency key
 * (service.ts), so a job run twice moves money once.
 */
import { fromPglite, PgBoss } from 'pg-boss';
import type { AppContext } from '../../context.ts';
import { type NextRun, pendingRuns, remindSchedule, runSchedule, type ScheduleQueue } from './service.ts';

const RUN_QUEUE = 'schedule-run';
const REMIND_QUEUE = 'schedule-remind';
const DAY_MS = 24 * 60 * 60_000;

interface RunJob {
  schedule_id: string;
  index: number;
}

export interface ScheduleJobs extends ScheduleQueue {
  stop(): Promise<void>;
}

/** Tells no queue anything: the instance does not run the queue (SCHEDULE_JOBS=off, tests by default). */
export const noQueue: ScheduleQueue = { enqueue: async () => {} };

function bossFor(ctx: AppContext): PgBoss {
  const common = { schema: 'pgboss', schedule: false } as const;
  if (ctx.db.pglite) return new PgBoss({ ...common, db: fromPglite(ctx.db.pglite), backend: 'pglite' });
  if (!ctx.config.DATABASE_URL) throw new Error('schedules: no database for the job queue');
  return new PgBoss({ ...common, connectionString: ctx.config.DATABASE_URL, max: 3 });
}

/** Starts this instance's queue: its workers, and every active schedule's next run told again. */
export async function startScheduleJobs(ctx: AppContext): Promise<ScheduleJobs> {
  const boss = bossFor(ctx);
  boss.on('error', (error: Error) => console.warn(`schedule jobs: ${error.message}`));
  await boss.start();
  for (const name of [RUN_QUEUE, REMIND_QUEUE])
    await boss.createQueue(name, { policy: 'stately', retryLimit: 5, retryDelay: 5, retryBackoff: true });

  const enqueue = async (next: NextRun): Promise<void> => {
    const data: RunJob = { schedule_id: next.id, index: next.index };
    const key = `${next.id}:${next.index}`;
    await boss.send(RUN_QUEUE, data, { startAfter: next.at, singletonKey: key });
    const remindAt = new Date(next.at.getTime() - DAY_MS);
    if (remindAt > ctx.clock.now())
      await boss.send(REMIND_QUEUE, data, { startAfter: remindAt, singletonKey: key });
  };
  const poll = { pollingIntervalSeconds: ctx.config.SCHEDULE_POLL_SECONDS, batchSize: 5 };
  await boss.work<RunJob>(RUN_QUEUE, poll, async (jobs) => {
    for (const job of jobs) {
      const { next } = await runSchedule(ctx, job.data.schedule_id, job.data.index);
      if (next) await enqueue(next);
    }
  });
  await boss.work<RunJob>(REMIND_QUEUE, poll, async (jobs) => {
    for (const job of jobs) await remindSchedule(ctx, job.data.schedule_id, job.data.index);
  });
  // A run enqueued after its transaction committed may have been lost with the instance: told again.
  for (const next of await pendingRuns(ctx)) await enqueue(next);

  return {
    enqueue,
    async stop() {
      await boss.stop({ graceful: true, timeout: 5_000, close: true });
    },
  };
}
