/**
 * The job system in the back office (docs/decisions/jobs.md#one-job-system): each queue's figures as a page,
 * a queue's failed and dead jobs with their error, and an admin's retry or cancel of one, audited.
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

/** Every queue on one page: there are a dozen (`next` is always null, the shape is every list's). */
export async function jobsPage(ctx: AppContext): Promise<{ results: unknown[]; next: string | null }> {
  if (!ctx.jobs.running) return { results: [], next: null };
  return { results: await ctx.jobs.figures(), next: null };
}

export async function jobProblems(
  ctx: AppContext,
  queue: string,
): Promise<{ results: unknown[]; next: null }> {
  if (!ctx.jobs.running) return { results: [], next: null };
  return { results: await ctx.jobs.problems(queue), next: null };
}

async function problemOf(ctx: AppContext, queue: string, id: string) {
  const job = ctx.jobs.running ? await ctx.jobs.problem(queue, id) : null;
  if (!job) throw new AppError('JOB_NOT_FOUND');
  return job;
}

export async function decideJob(
  ctx: AppContext,
  by: Operator,
  queue: string,
  id: string,
  action: 'retry' | 'cancel',
): Promise<{ id: string; status: string }> {
  const job = await problemOf(ctx, queue, id);
  if (action === 'retry') await ctx.jobs.retry(job);
  else await ctx.jobs.cancel(job);
  // pg-boss keeps its jobs in its own schema, written by its own connection: the line follows the act.
  await writeAudit(ctx.db, ctx, by, {
    action: `job_${action}`,
    objectType: 'job',
    objectId: id,
    before: { queue, state: job.state, error: job.error },
    after: { status: action === 'retry' ? 'queued' : 'cancelled' },
  });
  return { id, status: action === 'retry' ? 'queued' : 'cancelled' };
}
