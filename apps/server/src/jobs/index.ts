/**
 * One job system for all background work (docs/decisions/jobs.md#one-job-system): pg-boss on the server's own
 * database (PostgreSQL, or the embedded PGlite through pg-boss's PGlite backend), in the schema
 * `pgboss`. Each owner of background work declares its queues here (`define`): what one job does,
 * its retries (with backoff), and optionally a cron for work that recurs. Every queue has a dead-letter
 * queue `<name>-dead` where a job lands after its last retry; an admin retries or cancels it from the
 * back office (ops/jobs.ts). Any number of instances run the queues: pg-boss hands each job to one.
 *
 * The system starts with the server (app.ts, onReady) where `runsJobs` says so; tests that drive the
 * work by hand leave it off, and then `send` tells nobody (the owners' start-up catch-up re-sends).
 */
// What the back office reads of the queues is the contract's (contract/jobs.ts).
import type { JobProblem as JobView, QueueFigures } from '@e-wallet/contract';
import { fromPglite, PgBoss } from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

export interface QueueSpec<T extends object> {
  name: string;
  /** One job; a throw is a failure: retried with backoff, then moved to the dead-letter queue. */
  run(data: T): Promise<void>;
  /** Retries after the first failure (JOBS_RETRY_LIMIT by default). */
  retryLimit?: number;
  /** Seconds before the first retry, doubled each time (JOBS_RETRY_DELAY_SECONDS by default). */
  retryDelaySeconds?: number;
  /** 'stately': one waiting and one running job per singleton key (a payout's check). */
  policy?: 'standard' | 'stately';
  /** Work that recurs, once for all instances: a cron expression (minutes). */
  cron?: string;
  /** Seconds between polls for new jobs (2 by default). */
  pollSeconds?: number;
  /** Runs when the system has started on this instance: re-sends what a crash may have lost. */
  onStart?(): Promise<void>;
}

export const deadQueue = (name: string) => `${name}-dead`;

/** Whether this instance runs the queues: JOBS, else SCHEDULE_JOBS (its older name), else on outside tests. */
export function runsJobs(config: Config): boolean {
  return (config.JOBS ?? config.SCHEDULE_JOBS ?? (config.WALLET_ENV === 'test' ? 'off' : 'on')) === 'on';
}

/** What a failed job's output says of its error: the message only, never a stack with data in it. */
function errorOf(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const message = (output as { message?: unknown }).message;
  return typeof message === 'string' ? message.slice(0, 500) : null;
}

export class Jobs {
  readonly #config: Config;
  readonly #db: Db;
  readonly #specs = new Map<string, QueueSpec<object>>();
  #boss: PgBoss | null = null;
  #starting: Promise<void> | null = null;
  /** Servers sharing this context that started the system (two apps on one embedded database). */
  #users = 0;

  constructor(config: Config, db: Db) {
    this.#config = config;
    this.#db = db;
  }

  define<T extends object>(spec: QueueSpec<T>): void {
    this.#specs.set(spec.name, spec as unknown as QueueSpec<object>);
  }

  get running(): boolean {
    return this.#boss !== null;
  }

  /** The queues declared, in the order they were. */
  get queues(): string[] {
    return [...this.#specs.keys()];
  }

  #newBoss(): PgBoss {
    const common = { schema: 'pgboss', schedule: true } as const;
    if (this.#db.pglite) return new PgBoss({ ...common, db: fromPglite(this.#db.pglite), backend: 'pglite' });
    if (!this.#config.DATABASE_URL) throw new Error('jobs: no database for the job queue');
    return new PgBoss({ ...common, connectionString: this.#config.DATABASE_URL, max: 3 });
  }

  async start(): Promise<void> {
    this.#users += 1;
    if (!this.#starting) this.#starting = this.#start();
    await this.#starting;
  }

  async #start(): Promise<void> {
    const boss = this.#newBoss();
    boss.on('error', (error: Error) => console.warn(`jobs: ${error.message}`));
    await boss.start();
    for (const spec of this.#specs.values()) {
      const retry = {
        retryLimit: spec.retryLimit ?? this.#config.JOBS_RETRY_LIMIT,
        retryDelay: spec.retryDelaySeconds ?? this.#config.JOBS_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        retryDelayMax: 3600,
      };
      await boss.createQueue(deadQueue(spec.name), { retryLimit: 0 });
      await boss.createQueue(spec.name, {
        ...retry,
        policy: spec.policy ?? 'standard',
        deadLetter: deadQueue(spec.name),
      });
      // A queue made by an older build (the schedules' own) gets its retries and dead letters too.
      await boss.updateQueue(spec.name, { ...retry, deadLetter: deadQueue(spec.name) });
      await boss.work<object>(
        spec.name,
        { pollingIntervalSeconds: spec.pollSeconds ?? this.#config.JOBS_POLL_SECONDS, batchSize: 1 },
        async ([job]) => {
          if (job) await spec.run(job.data);
        },
      );
      if (spec.cron) await boss.schedule(spec.name, spec.cron, {}, { tz: 'Europe/Moscow' });
    }
    this.#boss = boss;
    for (const spec of this.#specs.values())
      await spec
        .onStart?.()
        .catch((error: Error) => console.warn(`jobs: ${spec.name} start: ${error.message}`));
  }

  /** Puts a job on a queue; a system not running here tells nobody (answers null). */
  async send(
    name: string,
    data: object,
    options: { startAfterSeconds?: number; singletonKey?: string } = {},
  ): Promise<string | null> {
    const boss = this.#boss;
    if (!boss) return null;
    return boss.send(name, data, {
      ...(options.startAfterSeconds ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
  }

  #started(): PgBoss {
    if (!this.#boss) throw new Error('jobs: the job system does not run on this instance');
    return this.#boss;
  }

  /**
   * Each queue's figures: waiting (due or not), running, failed (kept), dead, and when the oldest
   * waiting job came. Counted in pg-boss's own table at the time of asking: its cached queue figures
   * lag by up to a minute.
   */
  async figures(): Promise<QueueFigures[]> {
    this.#started();
    const names = this.queues;
    const { rows } = await this.#db.query<{ name: string; state: string; n: number; oldest: Date | null }>(
      `SELECT name, state::text AS state, count(*)::int AS n, min(created_on) AS oldest FROM pgboss.job
       WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed')
       GROUP BY name, state`,
      [[...names, ...names.map(deadQueue)]],
    );
    const count = (name: string, states: string[]) =>
      rows
        .filter((row) => row.name === name && states.includes(row.state))
        .reduce((sum, row) => sum + row.n, 0);
    return names.map((name) => {
      const oldest = rows
        .filter((row) => row.name === name && (row.state === 'created' || row.state === 'retry'))
        .map((row) => row.oldest?.getTime() ?? Number.POSITIVE_INFINITY)
        .reduce((min, time) => Math.min(min, time), Number.POSITIVE_INFINITY);
      return {
        queue: name,
        queued: count(name, ['created', 'retry']),
        active: count(name, ['active']),
        failed: count(name, ['failed']),
        dead: count(deadQueue(name), ['created', 'retry']),
        oldest_at: Number.isFinite(oldest) ? new Date(oldest).toISOString() : null,
      };
    });
  }

  /**
   * A queue's dead jobs (the last retry failed) and those failing now (waiting for a retry, or failed
   * where no dead copy was made), with their error, oldest first.
   */
  async problems(name: string, limit = 100): Promise<JobView[]> {
    const boss = this.#started();
    if (!this.#specs.has(name)) return [];
    const own = await boss.findJobs(name, { limit: 1000 });
    const dead = await boss.findJobs(deadQueue(name), { queued: true, limit });
    const sources = new Map(own.map((job) => [job.id, job]));
    const deadSources = new Set(dead.map((job) => job.sourceId));
    const failing = own.filter(
      (job) => (job.state === 'failed' || job.state === 'retry') && !deadSources.has(job.id),
    );
    const view = (job: (typeof own)[number], state: JobView['state']): JobView => {
      const source = job.sourceId ? sources.get(job.sourceId) : undefined;
      return {
        id: job.id,
        queue: name,
        state,
        data: job.data,
        error: errorOf(job.output) ?? errorOf(source?.output),
        retries: job.sourceRetryCount ?? job.retryCount,
        created_at: (job.sourceCreatedOn ?? job.createdOn).toISOString(),
        failed_at: (source?.completedOn ?? job.completedOn ?? job.createdOn)?.toISOString() ?? null,
      };
    };
    return [
      ...dead.map((job) => view(job, 'dead')),
      ...failing.slice(0, limit).map((job) => view(job, 'failed')),
    ];
  }

  /** One of a queue's failed or dead jobs, or null. */
  async problem(name: string, id: string): Promise<JobView | null> {
    return (await this.problems(name, 1000)).find((job) => job.id === id) ?? null;
  }

  /**
   * Runs a failed or dead job again: a failed one is retried where it is; a dead one goes back to its
   * queue as a new job (the dead copy is removed), with its retries afresh.
   */
  async retry(job: JobView): Promise<void> {
    const boss = this.#started();
    if (job.state === 'failed') {
      await boss.retry(job.queue, job.id);
      return;
    }
    // A new job with its retries afresh; the dead copy (and its failed original) leave the lists.
    await boss.send(job.queue, (job.data ?? {}) as object);
    const [copy] = await boss.findJobs(deadQueue(job.queue), { id: job.id });
    await boss.deleteJob(deadQueue(job.queue), job.id);
    if (copy?.sourceId) await boss.deleteJob(job.queue, copy.sourceId).catch(() => {});
  }

  /** Gives a failed or dead job up: it is not run again. */
  async cancel(job: JobView): Promise<void> {
    const boss = this.#started();
    if (job.state === 'failed') await boss.deleteJob(job.queue, job.id);
    else await boss.cancel(deadQueue(job.queue), job.id);
  }

  async stop(): Promise<void> {
    if (this.#users === 0) return;
    this.#users -= 1;
    if (this.#users > 0) return;
    await this.#starting?.catch(() => {});
    const boss = this.#boss;
    this.#boss = null;
    this.#starting = null;
    await boss?.stop({ graceful: true, timeout: 5_000, close: true });
  }
}
