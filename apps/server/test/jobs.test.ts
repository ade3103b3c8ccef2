/**
 * One job system (docs/decisions/jobs.md#one-job-system), on a real clock: a payout's job survives its
 * instance's restart, and a failing provider (retries, then the dead-letter queue, then an admin's
 * retry from the back office pays exactly once); the back office's figures and the metrics show the
 * queues; no hand-written claim loop is left in the server's code.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext, type RunningContext } from '../src/create-context.ts';
import { PayoutUnavailable } from '../src/providers/payouts/payouts-provider.ts';
import {
  databaseLabel,
  freshDatabase,
  jsonCaller,
  RealClock,
  type TestServer,
  usePostgres,
} from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { balance, person, withdraw } from './withdrawal-helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 40_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}

describe(`one job system (${databaseLabel})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  let dataDir = '';
  const clock = new RealClock();

  async function startInstance(): Promise<TestServer> {
    const config = loadConfig({
      WALLET_ENV: 'test',
      LOG_LEVEL: 'silent',
      SANDBOX_PAYOUT_DELAY_MS: '0',
      JOBS: 'on',
      JOBS_POLL_SECONDS: '0.5',
      JOBS_RETRY_LIMIT: '1',
      JOBS_RETRY_DELAY_SECONDS: '1',
      PAYOUT_CHECK_SECONDS: '2',
      ...(database ? { DATABASE_URL: database.url, DB_POOL_SIZE: '5' } : {}),
    });
    const ctx: RunningContext = await createContext(config, { clock, ...(dataDir ? { dataDir } : {}) });
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    return {
      app,
      ctx,
      clock,
      config,
      call: jsonCaller(app),
      async close() {
        await app.close();
        await ctx.stop();
      },
    };
  }

  let server: TestServer;
  let back: OpsServer;
  let admin: TestOperator;

  beforeAll(async () => {
    if (usePostgres) database = await freshDatabase('ewallet_jobs');
    else dataDir = mkdtempSync(join(tmpdir(), 'ewallet-jobs-'));
  }, 60_000);
  afterAll(async () => {
    await back?.app.close();
    await server?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const receipt = async (who: { token: string }, id: string) =>
    (await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token: who.token })).body;

  it('a payout’s job survives its instance’s restart', async () => {
    server = await startInstance();
    const ivan = await person(server, { rub: 100_000n });
    // The provider's webhook cannot reach the wallet: only the payout's check can settle it.
    server.ctx.payouts.setTransport?.(async () => 503);
    const created = await withdraw(server, ivan, { amount: '100' });
    expect(created.status).toBe(200);
    const id = created.body.receipt.id;
    // Gone before its check was due (2 s): the job waits in the database.
    await server.close();
    server = await startInstance();
    server.ctx.payouts.setTransport?.(async () => 503);
    await until(
      'the payout settled by the new instance',
      async () => (await receipt(ivan, id)).status === 'complete',
    );
    expect(await balance(server, ivan)).toBe('900.00');
    await expectLedgerSound(server);
  }, 120_000);

  it('a failing provider: retries, the dead-letter queue, then an admin’s retry pays exactly once', async () => {
    back = await startOps(server);
    admin = await operator(server, back, 'admin');
    const anna = await person(server, { rub: 100_000n });
    const provider = server.ctx.payouts as unknown as { fetch: (id: string) => Promise<unknown> };
    const fetchFromProvider = provider.fetch;
    provider.fetch = async () => {
      throw new PayoutUnavailable('the provider answers 503');
    };
    server.ctx.payouts.setTransport?.(async () => 503);
    const created = await withdraw(server, anna, { amount: '250' });
    const id = created.body.receipt.id;

    const dead = await until('the payout’s job dead', async () => {
      const problems = await back.call('GET', '/ops/v1/jobs/payout-check', { token: admin.token });
      return problems.body.results?.find(
        (job: { state: string; data: { payout_id: string } }) =>
          job.state === 'dead' && job.data.payout_id === id,
      );
    });
    expect(dead.error).toContain('the provider answers 503');
    const figures = await back.call('GET', '/ops/v1/jobs', { token: admin.token });
    expect(figures.status).toBe(200);
    expect(figures.body.next).toBeNull();
    const queue = figures.body.results.find((q: { queue: string }) => q.queue === 'payout-check');
    expect(queue).toMatchObject({
      dead: expect.any(Number),
      queued: expect.any(Number),
      active: expect.any(Number),
    });
    expect(queue.dead).toBeGreaterThanOrEqual(1);
    expect(Object.keys(queue).sort()).toEqual(['active', 'dead', 'failed', 'oldest_at', 'queue', 'queued']);
    expect((await receipt(anna, id)).status).toBe('pending');
    expect(await balance(server, anna)).toBe('750.00');

    // Only admins retry; the provider is back.
    const support = await operator(server, back, 'support');
    const url = `/ops/v1/jobs/payout-check/${dead.id}/retry`;
    expect((await back.call('POST', url, { token: support.token })).status).toBe(403);
    provider.fetch = fetchFromProvider;
    expect((await back.call('POST', url, { token: admin.token })).status).toBe(200);
    await until('the payout settled', async () => (await receipt(anna, id)).status === 'complete');
    // A second retry finds no dead job; the money left once.
    expect((await back.call('POST', url, { token: admin.token })).status).toBe(404);
    await sleep(1500);
    expect(await balance(server, anna)).toBe('750.00');
    const { rows } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN payouts p ON p.hold_transfer_id = e.transfer_id
       WHERE p.id = $1 AND e.phase = 'post' AND e.user_id IS NOT NULL`,
      [id],
    );
    expect(rows[0]!.n).toBe(1);
    await expectLedgerSound(server);
    // The sandbox's own deliveries died too (its webhook was refused): an admin cancels one.
    const sandboxDead = await until('the sandbox’s delivery dead', async () => {
      const problems = await back.call('GET', '/ops/v1/jobs/sandbox-payout', { token: admin.token });
      return problems.body.results?.find((job: { state: string }) => job.state === 'dead');
    });
    const cancel = `/ops/v1/jobs/sandbox-payout/${sandboxDead.id}/cancel`;
    expect((await back.call('POST', cancel, { token: admin.token })).status).toBe(200);
    const left = await back.call('GET', '/ops/v1/jobs/sandbox-payout', { token: admin.token });
    expect(left.body.results.map((job: { id: string }) => job.id)).not.toContain(sandboxDead.id);
    expect((await back.call('POST', cancel, { token: admin.token })).status).toBe(404);
    const audit = await back.call('GET', '/ops/v1/audit', { token: admin.token });
    const actions = audit.body.results.map((line: { action: string }) => line.action);
    expect(actions).toContain('job_retry');
    expect(actions).toContain('job_cancel');

    // The metrics name each queue's depth, failures and oldest job's age.
    const metrics = await server.ctx.metrics!.registry.metrics();
    expect(metrics).toMatch(/wallet_jobs_queued\{queue="payout-check"\} \d+/);
    expect(metrics).toMatch(/wallet_jobs_dead\{queue="payout-check"\} \d+/);
    expect(metrics).toMatch(/wallet_jobs_failed\{queue="payout-check"\} \d+/);
    expect(metrics).toMatch(/wallet_jobs_oldest_age_seconds\{queue="payout-check"\} [\d.]+/);
  }, 120_000);

  it('names every queue it declares in the back office, in both languages', async () => {
    server ??= await startInstance();
    const { en } = await import('../../backoffice/src/shared/i18n/en.ts');
    const { ru } = await import('../../backoffice/src/shared/i18n/ru.ts');
    const queues = server.ctx.jobs.queues;
    expect(queues.length).toBeGreaterThan(5);
    const unnamed = (texts: { jobs: { queues: Record<string, string> } }) =>
      queues.filter((queue) => !texts.jobs.queues[queue]);
    expect(unnamed(en)).toEqual([]);
    expect(unnamed(ru)).toEqual([]);
  });

  it('leaves no hand-written claim loop in the server’s code', () => {
    // The code and the SQL functions; migrations are history, applied once and never changed.
    const root = join(import.meta.dirname, '..', 'src');
    const loops = sourceFiles(root)
      .filter((path) => !path.includes(`${join('db', 'migrations')}`))
      .filter((path) => /SKIP LOCKED/i.test(readFileSync(path, 'utf8')));
    expect(loops).toEqual([]);
  });
});
