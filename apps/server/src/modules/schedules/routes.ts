/**
 * Scheduled transfers (docs/decisions.md section 13):
 *   GET/POST /v2/wallet/schedule, POST /v2/wallet/schedule/:id/pause | resume, DELETE /v2/wallet/schedule/:id
 * The job queue (jobs.ts) starts when the server is ready and stops when it closes.
 */
import type { Language } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { noQueue, type ScheduleJobs, startScheduleJobs } from './jobs.ts';
import { changeSchedule, createSchedule, listSchedules, type ScheduleQueue } from './service.ts';

const DELETED: Record<Language, string> = {
  ru: 'Регулярный перевод удалён',
  en: 'The scheduled transfer is deleted',
};

/** Whether this instance runs the queue: SCHEDULE_JOBS, else on outside tests. */
export function runsScheduleJobs(ctx: AppContext): boolean {
  return (ctx.config.SCHEDULE_JOBS ?? (ctx.config.WALLET_ENV === 'test' ? 'off' : 'on')) === 'on';
}

export default function scheduleRoutes(app: FastifyInstance, ctx: AppContext): void {
  let jobs: ScheduleJobs | null = null;
  const queue: ScheduleQueue = { enqueue: (next) => (jobs ?? noQueue).enqueue(next) };

  route(app, ctx, 'scheduleList', ({ auth }) => listSchedules(ctx, auth.userId));
  route(app, ctx, 'scheduleCreate', ({ auth, body }) => createSchedule(ctx, auth.userId, body, queue));
  route(app, ctx, 'schedulePause', async ({ auth, params }) => ({
    status: 'success',
    schedule: await changeSchedule(ctx, auth.userId, params.id, 'pause', queue),
  }));
  route(app, ctx, 'scheduleResume', async ({ auth, params }) => ({
    status: 'success',
    schedule: await changeSchedule(ctx, auth.userId, params.id, 'resume', queue),
  }));
  route(app, ctx, 'scheduleDelete', async ({ auth, params, language }) => {
    await changeSchedule(ctx, auth.userId, params.id, 'delete', queue);
    return { status: 'success', message: DELETED[language] };
  });

  if (runsScheduleJobs(ctx)) {
    app.addHook('onReady', async () => {
      jobs = await startScheduleJobs(ctx);
    });
    app.addHook('onClose', async () => {
      await jobs?.stop();
    });
  }
}
