/**
 * The antifraud check of a schedule's run and of money leaving the wallet
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): a run to a listed payee is skipped,
 * recorded and told; a large run is held until the person confirms it; a large withdrawal is held with its
 * card sealed, and its release hands the payout to the provider once; cancelling returns the money and drops
 * the sealed card; no card is ever stored in clear.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { release, sweepHolds } from '../src/modules/holds/index.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { runSchedule } from '../src/modules/schedules/service.ts';
import { SANDBOX_FRAUD_PHONE } from '../src/providers/fraud-db/sandbox.ts';
import { ownCode, registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  balance,
  GOOD_CARD,
  GOST_BIC,
  gostAccount,
  key,
  type Person,
  PIN,
  person,
  tablesContaining,
  withdraw,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const CARD_DIGITS = GOOD_CARD.replace(/\s/g, '');
const BIC = GOST_BIC;
const ACC = gostAccount('40702810000000054321');
const GOST = `ST00012|Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=30101810400000000225`;

describe(`the antifraud check of schedules' runs and payouts (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
  });
  afterEach(() => expectLedgerSound(server));
  afterAll(() => server.close());

  /** A confirmation with a fresh code for the hold; a hold already decided gets no code (any will do). */
  const confirm = async (who: Person, id: string, code?: string) =>
    server.call('POST', `/v2/wallet/holds/${id}/confirm`, {
      token: who.token,
      body: { confirm_code: code ?? (await ownCode(server, who, { hold: id })), pin: PIN },
    });
  async function scheduled(from: Person, phone: string, amount: string): Promise<string> {
    const made = await server.call('POST', '/v2/wallet/schedule', {
      token: from.token,
      body: {
        phone,
        amount,
        currency_code: 'RUB',
        period: 'month',
        first_run_at: new Date(clock.now().getTime() + 60_000).toISOString(),
        pin: PIN,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    clock.advance(61_000);
    return made.body.schedule.id as string;
  }
  async function lastRun(id: string) {
    const { rows } = await server.ctx.db.query<{ outcome: string; reason: string | null }>(
      'SELECT outcome, reason FROM schedule_runs WHERE schedule_id = $1 ORDER BY period_index DESC LIMIT 1',
      [id],
    );
    return rows[0];
  }
  async function holdOf(userId: string) {
    const { rows } = await server.ctx.db.query<{ id: string; status: string; call_name: string }>(
      'SELECT id, status, call_name FROM money_holds WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
      [userId],
    );
    return rows[0];
  }
  async function sealedCount(): Promise<number> {
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM payout_destinations',
    );
    return rows[0]!.n;
  }

  it("skips a schedule's run to a recipient the fraud database lists: recorded, and the person told why", async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    await registeredUser(server, { phone: SANDBOX_FRAUD_PHONE, pin: PIN });
    const id = await scheduled(ivan, SANDBOX_FRAUD_PHONE, '10.00');

    const run = await runSchedule(server.ctx, id, 0);
    expect(run.outcome).toBe('skipped');
    expect(run.next?.index).toBe(1);
    expect(await lastRun(id)).toEqual({ outcome: 'skipped', reason: 'recipient_fraud_listed' });
    expect(await balance(server, ivan)).toBe('1000.00');
    // The same period again moves nothing and records nothing more.
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('stale');
    const { rows } = await server.ctx.db.query<{ call_name: string; recipient: string }>(
      'SELECT call_name, recipient FROM fraud_refusals WHERE user_id = $1',
      [ivan.userId],
    );
    expect(rows).toEqual([{ call_name: 'scheduleCreate', recipient: SANDBOX_FRAUD_PHONE }]);
    const notices = await server.call('GET', '/v2/wallet/user/notification', { token: ivan.token });
    expect(JSON.stringify(notices.body)).toMatch(/базе случаев мошенничества/);
    const list = await server.call('GET', '/v2/wallet/schedule', { token: ivan.token });
    expect(list.body.results[0].last_run).toMatchObject({ outcome: 'skipped' });
  });

  it("holds a large schedule's run until the person confirms it, then pays it once", async () => {
    const ivan = await person(server, { level: 'full', rub: rub(30_000) });
    const petr = await person(server, { level: 'full' });
    const id = await scheduled(ivan, petr.phone, '12000.00');

    const run = await runSchedule(server.ctx, id, 0);
    expect(run.outcome).toBe('held');
    expect(run.next?.index).toBe(1);
    expect(await lastRun(id)).toMatchObject({ outcome: 'held' });
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('stale');
    expect(await balance(server, ivan)).toBe('18000.00');
    expect(await balance(server, petr)).toBe('0.00');
    const hold = (await holdOf(ivan.userId))!;
    expect(hold).toMatchObject({ status: 'held', call_name: 'scheduleCreate' });
    const holds = await server.call('GET', '/v2/wallet/holds', { token: ivan.token });
    expect(holds.body.results[0]).toMatchObject({ id: hold.id, amount: '12000.00', status: 'held' });
    const list = await server.call('GET', '/v2/wallet/schedule', { token: ivan.token });
    expect(list.body.results[0].last_run).toMatchObject({ outcome: 'held' });

    const confirmed = await confirm(ivan, hold.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.hold.status).toBe('released');
    expect(await balance(server, ivan)).toBe('18000.00');
    expect(await balance(server, petr)).toBe('12000.00');
    expect(await lastRun(id)).toMatchObject({ outcome: 'paid' });
    const again = await confirm(ivan, hold.id, '0000');
    expect(again.status).toBe(200);
    expect(await balance(server, petr)).toBe('12000.00');
  });

  it("a held schedule's run cancelled returns the money and counts as skipped", async () => {
    const ivan = await person(server, { level: 'full', rub: rub(30_000) });
    const petr = await person(server, { level: 'full' });
    const id = await scheduled(ivan, petr.phone, '11000.00');
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('held');
    const hold = (await holdOf(ivan.userId))!;
    const cancelled = await server.call('POST', `/v2/wallet/holds/${hold.id}/cancel`, { token: ivan.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await balance(server, ivan)).toBe('30000.00');
    expect(await balance(server, petr)).toBe('0.00');
    expect(await lastRun(id)).toEqual({ outcome: 'skipped', reason: 'hold_closed' });
  });

  it('holds a large withdrawal with its card sealed; the release hands the payout to the provider once', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(20_000) });
    const sameKey = key();
    const held = await withdraw(server, ivan, { amount: '15000.00' }, sameKey);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body).toMatchObject({ status: 'held', reasons: expect.arrayContaining(['large_amount']) });
    expect((await withdraw(server, ivan, { amount: '15000.00' }, sameKey)).body).toEqual(held.body);
    expect(await balance(server, ivan)).toBe('5000.00');
    expect(await sealedCount()).toBe(1);
    expect(await tablesContaining(server, CARD_DIGITS)).toEqual([]);
    const { rows: none } = await server.ctx.db.query('SELECT 1 FROM payouts WHERE user_id = $1', [
      ivan.userId,
    ]);
    expect(none).toHaveLength(0);

    // Two releases at once (the person's and an operator's): one payout to the provider.
    await Promise.all([
      release(server.ctx, held.body.hold_id, `person:${ivan.userId}`),
      release(server.ctx, held.body.hold_id, 'operator:test'),
    ]);
    const confirmed = await confirm(ivan, held.body.hold_id, '0000');
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.hold.status).toBe('released');
    expect(await sealedCount()).toBe(0);
    const { rows: sent } = await server.ctx.db.query<{ reference: string; destination: string }>(
      `SELECT p.reference, p.destination FROM sandbox_payouts p JOIN payouts o ON o.id = p.reference
       WHERE o.user_id = $1`,
      [ivan.userId],
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.destination).toBe('411111******1111');
    expect(await balance(server, ivan)).toBe('5000.00');

    await runPayoutWorkerOnce(server.ctx);
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${sent[0]!.reference}`, {
      token: ivan.token,
    });
    expect(receipt.body).toMatchObject({ status: 'complete', amount: '15000.00', card: '411111******1111' });
    expect(await balance(server, ivan)).toBe('5000.00');
    expect(await tablesContaining(server, CARD_DIGITS)).toEqual([]);
  });

  it('a cancelled withdrawal returns the money and its sealed card is gone', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(20_000) });
    const held = await withdraw(server, ivan, { amount: '12000.00' });
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(await sealedCount()).toBe(1);
    const { rows } = await server.ctx.db.query<{ sealed: Buffer }>(
      'SELECT sealed FROM payout_destinations WHERE hold_id = $1',
      [held.body.hold_id],
    );
    expect(Buffer.from(rows[0]!.sealed).toString('latin1')).not.toContain(CARD_DIGITS);

    const cancelled = await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/cancel`, {
      token: ivan.token,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await balance(server, ivan)).toBe('20000.00');
    expect(await sealedCount()).toBe(0);
    const { rows: payouts } = await server.ctx.db.query('SELECT 1 FROM payouts WHERE user_id = $1', [
      ivan.userId,
    ]);
    expect(payouts).toHaveLength(0);
    expect(await tablesContaining(server, CARD_DIGITS)).toEqual([]);
  });

  it('holds a large GOST payment with its account sealed; expiry returns the money and drops it', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(20_000) });
    const pay = (amount: string) =>
      server.call('POST', '/v2/wallet/payment/qr', {
        token: ivan.token,
        body: { qr: `${GOST}|Sum=${amount}`, currency_code: 'RUB', pin: PIN },
      });
    const held = await pay('1500000');
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body.status).toBe('held');
    expect(await balance(server, ivan)).toBe('5000.00');
    expect(await sealedCount()).toBe(1);
    expect(await tablesContaining(server, ACC)).toEqual([]);

    clock.advance(49 * 3_600_000);
    expect((await sweepHolds(server.ctx)).expired).toBeGreaterThanOrEqual(1);
    expect(await balance(server, ivan)).toBe('20000.00');
    expect(await sealedCount()).toBe(0);
    expect(await tablesContaining(server, ACC)).toEqual([]);

    // Released, the payment goes to the provider once, the account kept as a bank payment keeps it.
    const again = await pay('1200000');
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const confirmed = await confirm(ivan, again.body.hold_id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await sealedCount()).toBe(0);
    const { rows } = await server.ctx.db.query<{ destination: string; status: string }>(
      'SELECT destination, status FROM payouts WHERE user_id = $1',
      [ivan.userId],
    );
    expect(rows).toEqual([{ destination: ACC, status: 'pending' }]);
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('8000.00');
  });
});
