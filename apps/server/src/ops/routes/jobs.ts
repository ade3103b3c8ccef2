/** The job system's queues: their counts, a queue's failed jobs, and an operator's retry or cancel. */
import { decideJob, jobProblems, jobsPage } from '../jobs.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('jobs', (app, ctx) => {
  opsRoute(app, ctx, 'jobs', () => jobsPage(ctx));
  opsRoute(app, ctx, 'jobProblems', ({ params }) => jobProblems(ctx, params.queue));
  opsRoute(app, ctx, 'jobRetry', ({ op, params }) => decideJob(ctx, op, params.queue, params.id, 'retry'));
  opsRoute(app, ctx, 'jobCancel', ({ op, params }) => decideJob(ctx, op, params.queue, params.id, 'cancel'));
});
