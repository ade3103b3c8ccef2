/**
 * The job system in the back office (docs/decisions/jobs.md#one-job-system): each queue's figures, its failed
 * and dead jobs with their error, and an admin's retry or cancel of one (audited).
 */
import { z } from 'zod';
import type { OpsCallDef } from './ops.ts';
import { plainTextCall } from './plain-text.ts';
import { Cursor, Id, Limit } from './schemas.ts';

const def = <T extends OpsCallDef>(call: T): T => plainTextCall(call);

const QueueName = z.string().regex(/^[a-z][a-z0-9-]{0,62}$/);
export const OpsJobsQuery = z.strictObject({ cursor: Cursor.optional(), limit: Limit.optional() });
export const OpsJobQueueParams = z.strictObject({ queue: QueueName });
export const OpsJobParams = z.strictObject({ queue: QueueName, id: Id });

export const QueueFigures = z.object({
  queue: z.string(),
  queued: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  dead: z.number().int(),
  oldest_at: z.string().nullable(),
});
export type QueueFigures = z.infer<typeof QueueFigures>;

/** A failed job (retries left) or a dead one (in its queue's dead-letter queue), as the back office lists it. */
export const JobProblem = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(['failed', 'dead']),
  data: z.unknown(),
  error: z.string().nullable(),
  retries: z.number().int(),
  created_at: z.string(),
  failed_at: z.string().nullable(),
});
export type JobProblem = z.infer<typeof JobProblem>;

export const opsJobsCalls = {
  jobs: def({ method: 'GET', path: '/ops/v1/jobs', permission: 'read', query: OpsJobsQuery }),
  jobProblems: def({
    method: 'GET',
    path: '/ops/v1/jobs/:queue',
    permission: 'read',
    params: OpsJobQueueParams,
  }),
  jobRetry: def({
    method: 'POST',
    path: '/ops/v1/jobs/:queue/:id/retry',
    permission: 'jobs',
    params: OpsJobParams,
  }),
  jobCancel: def({
    method: 'POST',
    path: '/ops/v1/jobs/:queue/:id/cancel',
    permission: 'jobs',
    params: OpsJobParams,
  }),
} as const satisfies Record<string, OpsCallDef>;
