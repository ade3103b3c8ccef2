/**
 * Scheduled transfers through the API and the job queue (pg-boss), on a real clock: a schedule whose
 * first run is seconds away runs once while two server instances run the queue, runs once after the
 * instances restart past its time, and a run the money does not cover is skipped and the person told.
 * On PostgreSQL the instances are two contexts with their own pools on one database; on PGlite, which
 * one process owns, two servers on one embedded database, reopened from its data directory to restart.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext, type RunningContext } from '../src/create-context.ts';
import { remindSchedule, runSchedule, runTime } from '../src/modules/schedules/service.ts';
import { pay } from './door.ts';
import {
  databaseLabel,
  freshDatabase,
  jsonCaller,
  RealClock,
  startTestServer,
  TestClock,
  type TestServer,
  usePostgres,
} from './helpers.ts';
import { type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

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
      call: jsonCaller(app),
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
      'Tomorrow: the scheduled transfer of ₽10.00 to Ivan P.',
    );
    const removed = await a.call('DELETE', `/v2/wallet/schedule/${id}`, { token: payer.token });
    expect(removed.status).toBe(200);
    expect((await a.call('DELETE', `/v2/wallet/schedule/${id}`, { token: payer.token })).status).toBe(404);
  }, 60_000);
});

describe(`a schedule's runs without the queue (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-01-31T09:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());

  async function scheduled(from: Person, to: Person, amount = '100.00') {
    const made = await server.call('POST', '/v2/wallet/schedule', {
      token: from.token,
      body: {
        phone: to.phone,
        amount,
        currency_code: 'RUB',
        period: 'month',
        first_run_at: new Date(clock.now().getTime() + 60_000).toISOString(),
        pin: PIN,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.schedule.id as string;
  }

  it('months keep the first day, or the month’s last', () => {
    const first = new Date('2026-01-31T09:00:00Z');
    expect([1, 2, 3, 12].map((n) => runTime(first, 'month', n).toISOString())).toEqual([
      '2026-02-28T09:00:00.000Z',
      '2026-03-31T09:00:00.000Z',
      '2026-04-30T09:00:00.000Z',
      '2027-01-31T09:00:00.000Z',
    ]);
    expect(runTime(first, 'week', 2).toISOString()).toBe('2026-02-14T09:00:00.000Z');
  });

  it('a period run by several workers at once moves money once; a frozen or unidentified payer is skipped', async () => {
    const payer = await person(server, { rub: rub(1000) });
    const payee = await person(server);
    const id = await scheduled(payer, payee);
    clock.advance(61_000);
    const outcomes = await Promise.all([0, 0, 0, 0].map((index) => runSchedule(server.ctx, id, index)));
    expect(outcomes.filter((run) => run.outcome === 'paid')).toHaveLength(1);
    expect(outcomes.filter((run) => run.outcome === 'stale')).toHaveLength(3);
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('stale');
    const { rows } = await server.ctx.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM ledger_transfers WHERE reference_type = 'scheduled_transfer' AND reference_id = $1`,
      [id],
    );
    expect(Number(rows[0]!.n)).toBe(1);

    // A payment without a PIN is refused unless it is an active schedule's own run.
    await server.call('POST', `/v2/wallet/schedule/${id}/pause`, { token: payer.token });
    expect((await runSchedule(server.ctx, id, 1)).outcome).toBe('stale');
    const withoutPin = (reference: { type: string; id: string }) =>
      pay(server.ctx.db, {
        id: randomUUID(),
        payer: payer.userId,
        payee: payee.userId,
        currency: 'RUB',
        amount: 10_000n,
        kind: 'transfer',
        reference,
        description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
        at: clock.now(),
        rules: server.ctx.config.levelRulesJson,
        pinProof: null,
        call: { name: 'transfer', key: null, requestHash: '-', answer: null },
      });
    expect(await withoutPin({ type: 'scheduled_transfer', id })).toEqual({
      outcome: 'refused',
      refusal: { rule: 'pin' },
    });
    expect(await withoutPin({ type: 'payment_request', id })).toEqual({
      outcome: 'refused',
      refusal: { rule: 'pin' },
    });

    const frozen = await person(server, { rub: rub(1000) });
    const frozenId = await scheduled(frozen, payee);
    await server.call('POST', '/v2/wallet/freeze', { token: frozen.token, body: {} });
    clock.advance(61_000);
    expect((await runSchedule(server.ctx, frozenId, 0)).outcome).toBe('skipped');
    const anonymous = await person(server, { rub: rub(1000) });
    const anonymousId = await scheduled(anonymous, payee);
    await server.ctx.db.query(`UPDATE users SET identification_level = 'anonymous' WHERE id = $1`, [
      anonymous.userId,
    ]);
    clock.advance(61_000);
    expect((await runSchedule(server.ctx, anonymousId, 0)).outcome).toBe('skipped');
    const reasons = await server.ctx.db.query<{ reason: string }>(
      'SELECT reason FROM schedule_runs WHERE schedule_id = ANY($1::uuid[]) ORDER BY reason',
      [[frozenId, anonymousId]],
    );
    expect(reasons.rows.map((row) => row.reason)).toEqual(['transfer_not_allowed', 'wallet_frozen']);
  });
});
