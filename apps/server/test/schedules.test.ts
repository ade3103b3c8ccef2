/**
 * Scheduled transfers through the API and the job queue (pg-boss), on a real clock: a schedule whose
 * first run is seconds away runs once while two server instances run the queue, runs once after the
 * instances restart past its time, and a run the money does not cover is skipped and the person told.
 * On PostgreSQL the instances are two contexts with their own pools on one database; on PGlite, which
 * one process owns, two servers on one embedded database, reopened from its data directory to restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext, type RunningContext } from '../src/create-context.ts';
import { remindSchedule } from '../src/modules/schedules/service.ts';
import { databaseLabel, freshDatabase, TestClock, type TestServer, usePostgres } from './helpers.ts';
import { type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

/** The test harness's clock, following real time: the job queue's times are the database's. */
class RealClock extends TestClock {
  override now(): Date {
    return new Date();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`scheduled transfers (${databaseLabel})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  let dataDir = '';
  let shared: RunningContext | null = null;
  let instances: TestServer[] = [];
  const clock = new RealClock();
  const config = () =>
    loadConfig({
      WALLET_ENV: 'test',
      LOG_LEVEL: 'silent',
      SANDBOX_PAYOUT_DELAY_MS: '0',
      SCHEDULE_JOBS: 'on',
      SCHEDULE_POLL_SECONDS: '0.5',
      ...(database ? { DATABASE_URL: database.url, DB_POOL_SIZE: '5' } : {}),
    });

  async function startInstance(): Promise<TestServer> {
    if (!usePostgres && !shared) shared = await createContext(config(), { clock, dataDir });
    const ctx = shared ?? (await createContext(config(), { clock }));
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    return {
      app,
      ctx,
      clock,
      config: ctx.config,
      async call(method, url, { body, token, headers = {} } = {}) {
        const response = await app.inject({
          method,
          url,
          headers: {
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Token ${token}` } : {}),
            ...headers,
          },
          payload: body === undefined ? undefined : JSON.stringify(body),
        });
        let parsed: unknown = response.body;
        try {
          parsed = JSON.parse(response.body);
        } catch {}
        return { status: response.statusCode, body: parsed, headers: response.headers };
      },
      async close() {
        await app.close();
        if (usePostgres) await ctx.stop();
      },
    };
  }

  async function startTwo(): Promise<[TestServer, TestServer]> {
    await stopAll();
    instances = [await startInstance(), await startInstance()];
    return instances as [TestServer, TestServer];
  }

  async function stopAll(): Promise<void> {
    for (const instance of instances) await instance.close();
    instances = [];
    await shared?.stop();
    shared = null;
  }

  beforeAll(async () => {
    if (usePostgres) database = await freshDatabase('ewallet_sched');
    else dataDir = mkdtempSync(join(tmpdir(), 'ewallet-sched-'));
  }, 60_000);
  afterAll(async () => {
    await stopAll();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  function schedule(
    server: TestServer,
    from: Person,
    to: Person,
    inMs: number,
    extra: Record<string, unknown> = {},
  ) {
    return server.call('POST', '/v2/wallet/schedule', {
      token: from.token,
      body: {
        phone: to.phone,
        amount: '100.00',
        currency_code: 'RUB',
        period: 'week',
        first_run_at: new Date(Date.now() + inMs).toISOString(),
        pin: PIN,
        ...extra,
      },
    });
  }

  async function runsOf(server: TestServer, id: string) {
    const { rows } = await server.ctx.db.query<{ outcome: string; reason: string | null; created_at: Date }>(
      'SELECT outcome, reason, created_at FROM schedule_runs WHERE schedule_id = $1 ORDER BY period_index',
      [id],
    );
    return rows;
  }

  async function transfersOf(server: TestServer, id: string): Promise<number> {
    const { rows } = await server.ctx.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_transfers WHERE reference_type = 'scheduled_transfer' AND reference_id = $1`,
      [id],
    );
    return Number(rows[0]!.n);
  }

  /** Waits for the schedule's first run, at most 30 s past its time. */
  async function firstRun(server: TestServer, id: string, at: number) {
    while (Date.now() < at + 30_000) {
      const runs = await runsOf(server, id);
      if (runs.length > 0) return runs;
      await sleep(250);
    }
    throw new Error('no run within 30 s of its time');
  }

  it('runs once, within 30 s of its time, with two instances running the queue', async () => {
    const [a, b] = await startTwo();
    const payer = await person(a, { rub: rub(1000) });
    const payee = await person(a);
    const past = await schedule(a, payer, payee, -1000);
    expect(past.body.code).toBe('SCHEDULE_TIME_INVALID');
    const wrongPin = await schedule(a, payer, payee, 3000, { pin: '0000' });
    expect(wrongPin.body.code).toBe('PIN_INVALID');

    const made = await schedule(a, payer, payee, 3000);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, first_run_at } = made.body.schedule;
    expect(made.body.schedule).toMatchObject({ status: 'active', period: 'week', recipient: 'Иван П.' });
    const at = Date.parse(first_run_at);
    const runs = await firstRun(b, id, at);
    expect(runs[0]!.outcome).toBe('paid');
    expect(runs[0]!.created_at.getTime()).toBeGreaterThanOrEqual(at);
    await sleep(2000);
    expect(await runsOf(a, id)).toHaveLength(1);
    expect(await transfersOf(a, id)).toBe(1);
    const listed = await b.call('GET', '/v2/wallet/schedule', { token: payer.token });
    expect(listed.body.results[0]).toMatchObject({ id, last_run: { outcome: 'paid' } });
    expect(Date.parse(listed.body.results[0].next_run_at)).toBe(at + 7 * 24 * 3600_000);
    const wallet = await a.call('GET', '/v2/wallet', { token: payee.token });
    expect(wallet.body.results[0].accounts[0].balance).toBe('100.00');
  }, 60_000);

  it('a run due while every instance was down runs once after they start again', async () => {
    let [a] = await startTwo();
    const payer = await person(a, { rub: rub(1000) });
    const payee = await person(a);
    const made = await schedule(a, payer, payee, 2500);
    expect(made.status).toBe(200);
    const { id, first_run_at } = made.body.schedule;
    await stopAll();
    await sleep(3500);
    [a] = await startTwo();
    const runs = await firstRun(a, id, Date.now());
    expect(runs[0]!.outcome).toBe('paid');
    await sleep(1500);
    expect(await transfersOf(a, id)).toBe(1);
    expect(Date.parse(first_run_at)).toBeLessThan(Date.now());
  }, 60_000);

  it('a run the money does not cover is skipped and the person told; a paused schedule does not run', async () => {
    const [a] = instances.length ? (instances as [TestServer, TestServer]) : await startTwo();
    const payer = await person(a, { rub: rub(50) });
    const payee = await person(a);
    const made = await schedule(a, payer, payee, 2000);
    const paused = await schedule(a, payer, payee, 2500, { amount: '10.00' });
    const pause = await a.call('POST', `/v2/wallet/schedule/${paused.body.schedule.id}/pause`, {
      token: payer.token,
    });
    expect(pause.body.schedule).toMatchObject({ status: 'paused', next_run_at: null });
    const { id, first_run_at } = made.body.schedule;
    const runs = await firstRun(a, id, Date.parse(first_run_at));
    expect(runs[0]).toMatchObject({ outcome: 'skipped', reason: 'insufficient_funds' });
    expect(await transfersOf(a, id)).toBe(0);
    const told = await a.call('GET', '/v2/wallet/user/notification', { token: payer.token });
    const texts = told.body.results.map((n: { message: string }) => n.message.replace(/\s/g, ' '));
    expect(texts).toContain(
      'Регулярный перевод 100,00 ₽ (Иван П.) не выполнен: Недостаточно средств на счёте',
    );
    const listed = await a.call('GET', '/v2/wallet/schedule', { token: payer.token });
    const skipped = listed.body.results.find((s: { id: string }) => s.id === id);
    expect(skipped).toMatchObject({ status: 'active', last_run: { outcome: 'skipped' } });
    await sleep(1500);
    expect(await runsOf(a, paused.body.schedule.id)).toHaveLength(0);
    const resumed = await a.call('POST', `/v2/wallet/schedule/${paused.body.schedule.id}/resume`, {
      token: payer.token,
    });
    expect(resumed.body.schedule.status).toBe('active');
    expect(Date.parse(resumed.body.schedule.next_run_at)).toBeGreaterThan(Date.now());
    // The reminder of the next period, once (its job is due a day before the run).
    const { rows } = await a.ctx.db.query<{ next_index: number }>(
      'SELECT next_index FROM scheduled_transfers WHERE id = $1',
      [paused.body.schedule.id],
    );
    expect(await remindSchedule(a.ctx, paused.body.schedule.id, rows[0]!.next_index)).toBe(true);
    expect(await remindSchedule(a.ctx, paused.body.schedule.id, rows[0]!.next_index)).toBe(false);
    const reminded = await a.call('GET', '/v2/wallet/user/notification', {
      token: payer.token,
      headers: { 'accept-language': 'en' },
    });
    expect(reminded.body.results.map((n: { message: string }) => n.message)).toContain(
      'Tomorrow: the scheduled transfer of ₽10.00 to Иван П.',
    );
    const removed = await a.call('DELETE', `/v2/wallet/schedule/${id}`, { token: payer.token });
    expect(removed.status).toBe(200);
    expect((await a.call('DELETE', `/v2/wallet/schedule/${id}`, { token: payer.token })).status).toBe(404);
  }, 60_000);
});
