/**
 * The scheduled transfers' queues in the job system
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers and
 * docs/decisions/jobs.md#one-job-system). A period's run is a job due at its time, keyed by schedule and
 * period, handed to one instance and retried after a crash; the run itself is exactly-once by its row and
 * idempotency key (service.ts), so a job run twice moves money once. A reminder is a job a day before.
 */
import type { AppContext } from '../../context.ts';
import { type NextRun, pendingRuns, remindSchedule, runSchedule, type ScheduleQueue } from './service.ts';

const RUN_QUEUE = 'schedule-run';
const REMIND_QUEUE = 'schedule-remind';
const DAY_MS = 24 * 60 * 60_000;

interface RunJob {
  schedule_id: string;
  index: number;
}

/** Declares the queues; answers how a run is told to them (nobody, where the system does not run). */
export function defineScheduleJobs(ctx: AppContext): ScheduleQueue {
  const enqueue = async (next: NextRun): Promise<void> => {
    const data: RunJob = { schedule_id: next.id, index: next.index };
    const key = `${next.id}:${next.index}`;
    const now = ctx.clock.now().getTime();
    await ctx.jobs.send(RUN_QUEUE, data, {
      startAfterSeconds: (next.at.getTime() - now) / 1000,
      singletonKey: key,
    });
    const remindAt = next.at.getTime() - DAY_MS;
    if (remindAt > now)
      await ctx.jobs.send(REMIND_QUEUE, data, {
        startAfterSeconds: (remindAt - now) / 1000,
        singletonKey: key,
      });
  };
  const common = {
    policy: 'stately',
    retryLimit: 5,
    retryDelaySeconds: 5,
    pollSeconds: ctx.config.SCHEDULE_POLL_SECONDS,
  } as const;
  ctx.jobs.define<RunJob>({
    ...common,
    name: RUN_QUEUE,
    run: async ({ schedule_id, index }) => {
      const { next } = await runSchedule(ctx, schedule_id, index);
      if (next) await enqueue(next);
    },
    // A run enqueued after its transaction committed may have been lost with the instance: told again.
    onStart: async () => {
      for (const next of await pendingRuns(ctx)) await enqueue(next);
    },
  });
  ctx.jobs.define<RunJob>({
    ...common,
    name: REMIND_QUEUE,
    run: async ({ schedule_id, index }) => {
      await remindSchedule(ctx, schedule_id, index);
    },
  });
  return { enqueue };
}
