/**
 * Scheduled transfers
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers):
 *   GET/POST /v2/wallet/schedule, POST /v2/wallet/schedule/:id/pause | resume, DELETE /v2/wallet/schedule/:id
 * Its queues (jobs.ts) run in the job system (docs/decisions/jobs.md#one-job-system).
 */
import type { Language } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { defineScheduleJobs } from './jobs.ts';
import { changeSchedule, createSchedule, listSchedules } from './service.ts';

const DELETED: Record<Language, string> = {
  ru: 'Регулярный перевод удалён',
  en: 'The scheduled transfer is deleted',
};

export default function scheduleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const queue = defineScheduleJobs(ctx);

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
}
