/**
 * СБП transfers through the API on a real database (docs/decisions/sbp.md): the participants, the check
 * before the PIN (the recipient's masked name, the same owners as the transfer), a transfer held then
 * settled or returned by the sandbox's test banks, 'to myself' with the recipient check, every refusal,
 * the level, limits, freeze and antifraud, a repeated Idempotency-Key, and a provider failing mid-call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { RECIPIENT_LOOKUPS } from '../src/modules/transfer/service.ts';
import { SANDBOX_FRAUD_PHONE } from '../src/providers/fraud-db/sandbox.ts';
import {
  PayoutUnavailable,
  REASON_RECIPIENT_CHECK_FAILED,
} from '../src/providers/payouts/payouts-provider.ts';
import {
  SANDBOX_SBP_CHECK_FAILS,
  SANDBOX_SBP_DECLINE_REASON,
  SANDBOX_SBP_DECLINES,
  SANDBOX_SBP_PAYS,
} from '../src/providers/payouts/sandbox-sbp.ts';
import { databaseLabel, isErrorShape, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  balance,
  key,
  type Person,
  PIN,
  person,
  settledPerson,
  tablesContaining,
  trustedPair,
  withdraw,
  withPayoutCall,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const PAYEE = '+79161234567';

describe(`СБП transfers (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const send = (
    who: Person,
    body: Record<string, unknown> = {},
    idempotencyKey?: string,
    language?: string,
  ) =>
    server.call('POST', '/v2/wallet/sbp/transfer', {
      token: who.token,
      body: { phone: PAYEE, bank_id: SANDBOX_SBP_PAYS, amount: '100.00', pin: PIN, ...body },
      headers: {
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...(language ? { 'accept-language': language } : {}),
      },
    });
  const check = (who: Person, body: Record<string, unknown> = {}) =>
    server.call('POST', '/v2/wallet/sbp/check', {
      token: who.token,
      body: { phone: PAYEE, bank_id: SANDBOX_SBP_PAYS, amount: '100.00', ...body },
    });
  const receiptOf = async (who: Person, id: string) =>
    (await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token: who.token })).body;

  it('lists the participants, the person’s recent banks first', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const first = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
    expect(first.status).toBe(200);
    const ids = first.body.results.map((bank: { id: string }) => bank.id);
    expect(ids).toEqual(
      expect.arrayContaining([SANDBOX_SBP_PAYS, SANDBOX_SBP_DECLINES, SANDBOX_SBP_CHECK_FAILS]),
    );
    expect(first.body.results.find((b: { id: string }) => b.id === SANDBOX_SBP_PAYS).name).toBe(
      'Тестовый банк',
    );
    expect((await send(ivan, { bank_id: '100000000004', amount: '1' })).status).toBe(200);
    const after = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
    expect(after.body.results[0]).toEqual({ id: '100000000004', name: 'Т-Банк' });
    expect((await server.call('GET', '/v2/wallet/sbp/banks')).status).toBe(401);
    await runPayoutWorkerOnce(server.ctx);
  });

  it('keeps the participants a day, and the last list when the provider cannot answer', async () => {
    const ivan = await person(server);
    const provider = server.ctx.payouts;
    const banksCall = provider.sbpBanks;
    let asked = 0;
    provider.sbpBanks = async () => {
      asked += 1;
      throw new PayoutUnavailable('timeout');
    };
    try {
      const cached = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
      expect(cached.status).toBe(200);
      expect(asked).toBe(0);
      clock.advance(25 * 3_600_000);
      const stale = await server.call('GET', '/v2/wallet/sbp/banks', { token: ivan.token });
      expect(stale.status).toBe(200);
      expect(stale.body.results.length).toBeGreaterThan(3);
      expect(asked).toBe(1);
    } finally {
      provider.sbpBanks = banksCall;
    }
  });

  it('checks before the PIN: the bank, the recipient’s masked name (the same each time), the limits', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const first = await check(ivan);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ok: true, problems: [], bank_name: 'Тестовый банк' });
    expect(first.body.recipient_name).toMatch(/^\p{L}+ \p{L}\.$/u);
    expect((await check(ivan)).body.recipient_name).toBe(first.body.recipient_name);
    expect(first.body.limits).toBeDefined();

    const bad = await check(ivan, { phone: '+380501234567', bank_id: '100000000999', amount: '500000.01' });
    expect(bad.status).toBe(200);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.problems.map((p: { code: string }) => p.code)).toEqual(
      expect.arrayContaining([
        'SBP_PHONE_NOT_RUSSIAN',
        'SBP_AMOUNT_RANGE',
        'SBP_BANK_UNKNOWN',
        'INSUFFICIENT_FUNDS',
      ]),
    );
    expect(bad.body.recipient_name).toBeNull();
    const anon = await person(server, { level: 'anonymous', rub: rub(10) });
    const refused = await check(anon, { amount: '1' });
    expect(refused.body.problems.map((p: { code: string }) => p.code)).toContain('WITHDRAWAL_NOT_ALLOWED');
  });

  it('a name counts under the recipient lookup’s limit once per phone, however often the amount changes', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    for (let i = 1; i <= RECIPIENT_LOOKUPS.max + 5; i++)
      expect((await check(ivan, { amount: String(i) })).status).toBe(200);
    for (let i = 1; i < RECIPIENT_LOOKUPS.max; i++)
      expect((await check(ivan, { phone: `+7916000${String(i).padStart(4, '0')}` })).status).toBe(200);
    const refused = await check(ivan, { phone: '+79169999999' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
  });

  it('holds the money, names the bank and the masked phone, and posts the hold when the bank pays', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const sent = await send(ivan, { amount: '250.50', comment: 'За ужин' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message).toBe('Перевод по СБП отправлен');
    const receipt = sent.body.receipt;
    expect(receipt).toMatchObject({
      kind: 'withdrawal',
      status: 'pending',
      amount: '250.50',
      card: null,
      description: 'Перевод по СБП: Тестовый банк, +7 916 ***-**-67',
      failure_reason: null,
    });
    expect(receipt.counterparty).toMatch(/^\p{L}+ \p{L}\.$/u);
    expect(await balance(server, ivan)).toBe('749.50');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await receiptOf(ivan, receipt.id)).toMatchObject({ status: 'complete' });
    expect(await balance(server, ivan)).toBe('749.50');
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    expect(JSON.stringify(history.body)).toContain('Перевод по СБП: Тестовый банк, +7 916 ***-**-67');
    // Money sent to a person, not taken to one's card (issue 55): its category is 'Переводы людям'.
    const row = history.body.results.find((each: { description: string }) =>
      each.description.startsWith('Перевод по СБП'),
    );
    expect(row.category).toEqual({ id: 'people', name: 'Переводы людям' });
    // The full phone is never kept: only the masked one.
    expect(await tablesContaining(server, '79161234567')).toEqual([]);
    const english = await send(ivan, { amount: '1' }, undefined, 'en');
    expect(english.body.receipt.description).toBe('SBP transfer: Тестовый банк, +7 916 ***-**-67');
    await runPayoutWorkerOnce(server.ctx);
  });

  it('returns the money exactly once when the bank declines', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const sent = await send(ivan, { bank_id: SANDBOX_SBP_DECLINES, amount: '300' });
    expect(sent.status).toBe(200);
    expect(await balance(server, ivan)).toBe('700.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    expect(await receiptOf(ivan, sent.body.receipt.id)).toMatchObject({
      status: 'failed',
      failure_reason: SANDBOX_SBP_DECLINE_REASON,
    });
    expect(await balance(server, ivan)).toBe('1000.00');
  });

  it('to myself: the bank checks the verified name; a mismatch returns the money with the reason', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    const own = await send(ivan, { phone: ivan.phone, own: true, amount: '100' });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.receipt.counterparty).toBe('Иван П.');
    const mismatch = await send(ivan, {
      phone: ivan.phone,
      own: true,
      bank_id: SANDBOX_SBP_CHECK_FAILS,
      amount: '200',
    });
    expect(mismatch.status).toBe(200);
    expect(await balance(server, ivan)).toBe('700.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(2);
    expect(await receiptOf(ivan, own.body.receipt.id)).toMatchObject({ status: 'complete' });
    expect(await receiptOf(ivan, mismatch.body.receipt.id)).toMatchObject({
      status: 'failed',
      failure_reason: REASON_RECIPIENT_CHECK_FAILED,
    });
    expect(await balance(server, ivan)).toBe('900.00');
    // Without a recipient check the same test bank pays.
    expect((await send(ivan, { bank_id: SANDBOX_SBP_CHECK_FAILS, amount: '1' })).status).toBe(200);
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('899.00');

    const simple = await person(server, { rub: rub(100) });
    const notFull = await send(simple, { phone: simple.phone, own: true });
    expect(notFull.status).toBe(403);
    expect(notFull.body.code).toBe('SBP_OWN_NEEDS_FULL');
    const otherPhone = await send(ivan, { own: true });
    expect(otherPhone.status).toBe(400);
    expect(otherPhone.body.code).toBe('SBP_OWN_PHONE');
  });

  it('refuses an unknown bank, a foreign phone, amounts out of 1 ₽ to 500,000 ₽; nothing moves', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(600_000) });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ bank_id: '100000000999' }, 400, 'SBP_BANK_UNKNOWN'],
      [{ bank_id: 'sber' }, 400, 'VALIDATION_ERROR'],
      [{ phone: '+380501234567' }, 400, 'SBP_PHONE_NOT_RUSSIAN'],
      [{ phone: '89161234567' }, 400, 'VALIDATION_ERROR'],
      [{ amount: '500000.01' }, 400, 'SBP_AMOUNT_RANGE'],
      [{ amount: '0.99' }, 400, 'SBP_AMOUNT_RANGE'],
      [{ amount: '-1' }, 400, 'AMOUNT_INVALID'],
      [{ amount: 'abc' }, 400, 'AMOUNT_INVALID'],
      [{ pin: undefined }, 400, 'VALIDATION_ERROR'],
      [{ extra: 1 }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of cases) {
      const refused = await send(ivan, body);
      expect(refused.status, JSON.stringify([body, refused.body])).toBe(status);
      expect(isErrorShape(refused.body)).toBe(true);
      if (code !== 'VALIDATION_ERROR' && code !== 'AMOUNT_INVALID') expect(refused.body.code).toBe(code);
    }
    const range = await send(ivan, { amount: '500000.01' }, undefined, 'en');
    expect(range.body.message).toBe('A Faster Payments transfer is from ₽1.00 to ₽500,000.00');
    expect(await balance(server, ivan)).toBe('600000.00');
    const wrongPin = await send(ivan, { pin: '9999' });
    expect(wrongPin.status).toBe(400);
    expect(await balance(server, ivan)).toBe('600000.00');
  });

  it('follows the level, counts as a withdrawal toward the monthly limit, and stops on a freeze', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(100) });
    const refused = await send(anon, { amount: '10' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WITHDRAWAL_NOT_ALLOWED');

    const rich = await person(server, { rub: rub(250_000) });
    expect((await withdraw(server, rich, { amount: '150000' })).status).toBe(200);
    expect((await send(rich, { amount: '50000' })).status).toBe(200);
    const over = await send(rich, { amount: '1' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('LIMIT_MONTHLY');
    await runPayoutWorkerOnce(server.ctx);

    const petr = await person(server, { rub: rub(100) });
    expect((await server.call('POST', '/v2/wallet/freeze', { token: petr.token, body: {} })).status).toBe(
      200,
    );
    const frozen = await send(petr, { amount: '10' });
    expect(frozen.body.code).toBe('WALLET_FROZEN');
    expect(await balance(server, petr)).toBe('100.00');
  });

  it('refuses a phone the fraud database lists', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    const refused = await send(ivan, { phone: SANDBOX_FRAUD_PHONE, amount: '10' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.code).toBe('RECIPIENT_FRAUD_LISTED');
    expect(await balance(server, ivan)).toBe('1000.00');
  });

  it('a repeated Idempotency-Key answers the first receipt, and the provider is asked once', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const k = key();
    const [first, second] = await Promise.all([
      send(ivan, { amount: '250' }, k),
      send(ivan, { amount: '250' }, k),
    ]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(server, ivan)).toBe('750.00');
    expect((await send(ivan, { amount: '251' }, k)).body.code).toBe('IDEMPOTENCY_CONFLICT');
    const { rows } = await server.ctx.db.query('SELECT id FROM sandbox_payouts WHERE reference = $1', [
      first.body.receipt.id,
    ]);
    expect(rows).toHaveLength(1);
    await runPayoutWorkerOnce(server.ctx);
    expect((await send(ivan, { amount: '250' }, k)).body).toEqual(first.body);
    expect(await balance(server, ivan)).toBe('750.00');
  });

  it('a provider that times out: the money stays held, then returns once the payout is known never made', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const sent = await withPayoutCall(
      server,
      () => async () => {
        throw new PayoutUnavailable('timeout');
      },
      () => send(ivan, { amount: '40' }),
    );
    expect(sent.status).toBe(200);
    expect(await balance(server, ivan)).toBe('60.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    clock.advance(5 * 60_000 + 1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await balance(server, ivan)).toBe('100.00');
    expect(await receiptOf(ivan, sent.body.receipt.id)).toMatchObject({ status: 'failed' });
  });

  it('chaos: a provider failing mid-call leaves the money held, then settled or returned, never both', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    // The provider makes the payout, then the answer is lost.
    const [paid, declined] = await withPayoutCall(
      server,
      (real) => async (request) => {
        await real(request);
        throw new PayoutUnavailable('connection reset after the request');
      },
      async () => [
        await send(ivan, { amount: '100' }),
        await send(ivan, { amount: '200', bank_id: SANDBOX_SBP_DECLINES }),
      ],
    );
    expect([paid.status, declined.status]).toEqual([200, 200]);
    expect(await balance(server, ivan)).toBe('700.00');
    const statuses = async () => {
      const { rows } = await server.ctx.db.query<{ status: string; transfer: string }>(
        `SELECT p.status, t.status AS transfer FROM payouts p JOIN ledger_transfers t ON t.id = p.hold_transfer_id
         WHERE p.user_id = $1 ORDER BY p.amount`,
        [ivan.userId],
      );
      return rows;
    };
    expect((await statuses()).map((r) => r.status)).toEqual(['created', 'created']);
    // The sandbox settles and notifies; the worker's questions find the same outcome: applied once.
    for (let pass = 0; pass < 3; pass++) {
      clock.advance(5 * 60_000 + 1);
      await runPayoutWorkerOnce(server.ctx);
    }
    const settled = await statuses();
    expect(settled.map((r) => r.status)).toEqual(['succeeded', 'failed']);
    expect(settled.map((r) => r.transfer)).toEqual(['posted', 'voided']);
    expect(await balance(server, ivan)).toBe('900.00');
  });

  it('a held СБП transfer goes to the bank once its trusted person approves', async () => {
    const anna = await settledPerson(server, 50_000);
    const olga = await trustedPair(server, anna, '1000');
    const waiting = await send(anna, { amount: '5000' });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    expect(await balance(server, anna)).toBe('45000.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    const approved = await server.call('POST', `/v2/wallet/approvals/${waiting.body.hold_id}/approve`, {
      token: olga.token,
      body: { pin: PIN },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const { rows } = await server.ctx.db.query<{ status: string; destination: string }>(
      'SELECT status, destination FROM payouts WHERE user_id = $1',
      [anna.userId],
    );
    expect(rows).toEqual([{ status: 'succeeded', destination: '+7 916 ***-**-67' }]);
    expect(await balance(server, anna)).toBe('45000.00');
  });
});
