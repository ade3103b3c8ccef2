/**
 * Withdrawal to a card through the API, on a real database: the whole journey with payout success and
 * failure, PIN and lockout, every bad amount and card, limits, idempotency, repeated and forged webhooks,
 * access control, crash safety of the sandbox payouts, and the card never stored in clear.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { PayoutUnavailable } from '../src/providers/payouts/payouts-provider.ts';
import { fund } from './fund.ts';
import { databaseLabel, isErrorShape, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  balance,
  DECLINED_CARD,
  GOOD_CARD,
  key,
  notificationKinds,
  OTHER_CARD,
  PIN,
  payoutWebhook,
  person,
  tablesContaining,
  withdraw,
  withPayoutCall,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`withdrawal (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  it('holds the money, answers the receipt, and posts the hold when the payout succeeds', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await withdraw(server, ivan, { amount: '300.50', pan: GOOD_CARD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.status).toBe('success');
    expect(created.body.message).toBe('Заявка на вывод средств успешно создана!');
    const receipt = created.body.receipt;
    expect(receipt).toMatchObject({
      kind: 'withdrawal',
      status: 'pending',
      amount: '300.50',
      currency_code: 'RUB',
      card: '411111******1111',
      failure_reason: null,
    });
    // Held: gone from what the person can spend, not yet gone from the ledger.
    expect(await balance(server, ivan)).toBe('699.50');
    const pending = await server.call('GET', `/v2/wallet/withdrawal/${receipt.id}`, { token: ivan.token });
    expect(pending.body.status).toBe('pending');

    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const done = await server.call('GET', `/v2/wallet/withdrawal/${receipt.id}`, { token: ivan.token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: receipt.id,
      status: 'complete',
      amount: '300.50',
      card: '411111******1111',
    });
    expect(await balance(server, ivan)).toBe('699.50');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);

    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    const line = history.body.results.find((t: { kind: string }) => t.kind === 'withdrawal');
    expect(line).toMatchObject({
      amount: '-300.50',
      status: 'complete',
      wallet_transaction_type: 'withdrawal',
    });
    expect(await notificationKinds(server, ivan)).toContain('money_out_withdrawal');
    expect(await notificationKinds(server, ivan)).not.toContain('money_returned');
  });

  it('answers in English when asked', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const created = await server.call('POST', '/v2/wallet/withdrawal', {
      token: ivan.token,
      body: { amount: '10', pan: OTHER_CARD, currency_code: 'RUB', pin: PIN },
      headers: { 'accept-language': 'en' },
    });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('Your withdrawal request has been created!');
    expect(created.body.receipt.card).toBe('555555******4444');
    await runPayoutWorkerOnce(server.ctx);
  });

  it('releases the hold exactly once when the payout fails, and tells the person', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await withdraw(server, ivan, { amount: '400', pan: DECLINED_CARD });
    expect(created.status).toBe(200);
    expect(created.body.receipt.card).toBe('400000******0002');
    expect(await balance(server, ivan)).toBe('600.00');

    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const failed = await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`, {
      token: ivan.token,
    });
    expect(failed.body.status).toBe('failed');
    expect(failed.body.failure_reason).toMatch(/отклонил/);
    expect(await balance(server, ivan)).toBe('1000.00');
    expect((await notificationKinds(server, ivan)).filter((k) => k === 'money_returned')).toHaveLength(1);

    // The provider repeats its callback, or a late contradicting one arrives: nothing moves.
    const { rows } = await server.ctx.db.query<{ id: string; reference: string }>(
      'SELECT id, reference FROM sandbox_payouts WHERE reference = $1',
      [created.body.receipt.id],
    );
    const sandbox = rows[0]!;
    for (const event of ['payout.canceled', 'payout.succeeded', 'payout.canceled']) {
      const repeat = await payoutWebhook(server, {
        event,
        payout_id: sandbox.id,
        reference: sandbox.reference,
        reason: null,
        occurred_at: clock.now().toISOString(),
      });
      expect(repeat.status).toBe(200);
    }
    expect(await balance(server, ivan)).toBe('1000.00');
    expect((await notificationKinds(server, ivan)).filter((k) => k === 'money_returned')).toHaveLength(1);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    expect(history.body.results.find((t: { kind: string }) => t.kind === 'withdrawal').status).toBe('failed');
  });

  it('repeated success webhooks post the hold once', async () => {
    const ivan = await person(server, { rub: rub(500) });
    const created = await withdraw(server, ivan, { amount: '200' });
    const { rows } = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM sandbox_payouts WHERE reference = $1',
      [created.body.receipt.id],
    );
    const payload = {
      event: 'payout.succeeded',
      payout_id: rows[0]!.id,
      reference: created.body.receipt.id,
      reason: null,
      occurred_at: clock.now().toISOString(),
    };
    const answers = await Promise.all([1, 2, 3].map(() => payoutWebhook(server, payload)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await balance(server, ivan)).toBe('300.00');
    const { rows: clearing } = await server.ctx.db.query<{ balance: bigint }>(
      `SELECT balance FROM ledger_accounts WHERE purpose = 'payout_clearing' AND currency = 'RUB'`,
    );
    expect(clearing[0]!.balance).toBeGreaterThanOrEqual(rub(200));
    // The sandbox still delivers its own callback later: it changes nothing.
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('300.00');
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`, {
      token: ivan.token,
    });
    expect(receipt.body.status).toBe('complete');
  });

  it('refuses unsigned, forged and mismatched callbacks', async () => {
    const ivan = await person(server, { rub: rub(500) });
    const created = await withdraw(server, ivan, { amount: '50' });
    const payload = {
      event: 'payout.succeeded',
      payout_id: 'forged',
      reference: created.body.receipt.id,
      reason: null,
      occurred_at: clock.now().toISOString(),
    };
    const unsigned = await server.call('POST', '/v2/wallet/webhooks/payouts', { body: payload });
    expect(unsigned.status).toBe(401);
    const forged = await payoutWebhook(server, payload, 'another-secret-0000000000');
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const mismatched = await payoutWebhook(server, payload);
    expect(mismatched.status).toBe(404);
    const unknown = await payoutWebhook(server, {
      ...payload,
      reference: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(await balance(server, ivan)).toBe('450.00');
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('450.00');
  });

  it('checks the PIN on the server and locks after five wrong ones', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const wrong = await withdraw(server, ivan, { pin: '0000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('PIN_INVALID');
    expect(wrong.body.message).toBe('Неверный PIN-код. Осталось попыток: 4');
    for (let i = 0; i < 3; i++)
      expect((await withdraw(server, ivan, { pin: '0000' })).body.code).toBe('PIN_INVALID');
    const fifth = await withdraw(server, ivan, { pin: '0000' });
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe('PIN_LOCKED');
    // Locked: even the right PIN is refused, and nothing moves.
    const locked = await withdraw(server, ivan, { pin: PIN });
    expect(locked.body.code).toBe('PIN_LOCKED');
    expect(await balance(server, ivan)).toBe('1000.00');
    clock.advance(15 * 60_000 + 1000);
    const after = await withdraw(server, ivan, { pin: PIN, amount: '1' });
    expect(after.status).toBe(200);
    expect(await balance(server, ivan)).toBe('999.00');
    await runPayoutWorkerOnce(server.ctx);
  });

  it('refuses every bad amount and currency before the PIN is counted', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const cases: [string, string][] = [
      ['0', 'AMOUNT_NOT_POSITIVE'],
      ['0.00', 'AMOUNT_NOT_POSITIVE'],
      ['-5', 'AMOUNT_INVALID'],
      ['abc', 'AMOUNT_INVALID'],
      ['1e3', 'AMOUNT_INVALID'],
      ['10.5.5', 'AMOUNT_INVALID'],
      ['1.234', 'AMOUNT_TOO_PRECISE'],
      ['10000000000000000', 'AMOUNT_TOO_LARGE'],
    ];
    for (const [amount, code] of cases) {
      const answer = await withdraw(server, ivan, { amount, pin: '0000' });
      expect(answer.status, amount).toBe(400);
      expect(answer.body.code, amount).toBe(code);
      expect(isErrorShape(answer.body)).toBe(true);
    }
    const precise = await withdraw(server, ivan, { amount: '1.234' });
    expect(precise.body.message).toBe('Не больше 2 знаков после запятой');
    const usd = await withdraw(server, ivan, { currency_code: 'USD', pin: '0000' });
    expect(usd.body.code).toBe('CURRENCY_NOT_ALLOWED');
    const empty = await withdraw(server, ivan, { amount: '' });
    expect(empty.status).toBe(400);
    const { rows } = await server.ctx.db.query<{ pin_failures: number }>(
      'SELECT pin_failures FROM users WHERE id = $1',
      [ivan.userId],
    );
    expect(rows[0]!.pin_failures).toBe(0);

    const tooMuch = await withdraw(server, ivan, { amount: '100.01' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(server, ivan)).toBe('100.00');
    const { rows: payouts } = await server.ctx.db.query('SELECT id FROM payouts WHERE user_id = $1', [
      ivan.userId,
    ]);
    expect(payouts).toHaveLength(0);
  });

  it('refuses every bad card', async () => {
    const ivan = await person(server, { rub: rub(100) });
    for (const pan of [
      '4111 1111 1111 1112',
      '4111111111111112',
      '411111111111111',
      '41111111111111111',
      '4111-1111-1111-1111',
      '4111 1111 1111 111a',
      '',
      '                ',
      '0000 0000 0000 0001',
    ]) {
      const answer = await withdraw(server, ivan, { pan, pin: '0000' });
      expect(answer.status, pan).toBe(400);
      expect(answer.body.code, pan).toBe('CARD_INVALID');
      expect(answer.body.message).toBe('Проверьте номер карты');
    }
    // Digits only after removing spaces: any grouping of a valid card is the same card.
    const spaced = await withdraw(server, ivan, { pan: ' 4111111111111111 ', amount: '1' });
    expect(spaced.status).toBe(200);
    await runPayoutWorkerOnce(server.ctx);
  });

  it('follows the level: anonymous may not withdraw; the monthly limit counts held money', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(100) });
    const refused = await withdraw(server, anon, { amount: '10' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('WITHDRAWAL_NOT_ALLOWED');
    expect(refused.body.message).toBe('Вывод средств недоступен, пожалуйста, пройдите идентификацию.');

    const rich = await person(server, { rub: rub(250_000) });
    expect((await withdraw(server, rich, { amount: '150000' })).status).toBe(200);
    expect((await withdraw(server, rich, { amount: '50000' })).status).toBe(200);
    const over = await withdraw(server, rich, { amount: '0.01' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('LIMIT_MONTHLY');
    await runPayoutWorkerOnce(server.ctx);
  });

  it('a repeated Idempotency-Key answers the first receipt and moves money once', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const k = key();
    const first = await withdraw(server, ivan, { amount: '250' }, k);
    const second = await withdraw(server, ivan, { amount: '250' }, k);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balance(server, ivan)).toBe('750.00');
    const conflict = await withdraw(server, ivan, { amount: '251' }, k);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    const { rows } = await server.ctx.db.query('SELECT id FROM sandbox_payouts WHERE reference = $1', [
      first.body.receipt.id,
    ]);
    expect(rows).toHaveLength(1);
    const bad = await withdraw(server, ivan, { amount: '1' }, 'short');
    expect(bad.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    await runPayoutWorkerOnce(server.ctx);
    // After the payout settled, the repeat still answers the first answer and moves nothing.
    const third = await withdraw(server, ivan, { amount: '250' }, k);
    expect(third.body).toEqual(first.body);
    expect(await balance(server, ivan)).toBe('750.00');
  });

  it("another user's withdrawal is not found", async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    const created = await withdraw(server, ivan, { amount: '10' });
    const foreign = await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`, {
      token: petr.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('OPERATION_NOT_FOUND');
    const missing = await server.call('GET', '/v2/wallet/withdrawal/00000000-0000-4000-8000-000000000000', {
      token: ivan.token,
    });
    expect(missing.body.code).toBe('OPERATION_NOT_FOUND');
    const anonymous = await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`);
    expect(anonymous.status).toBe(401);
    await runPayoutWorkerOnce(server.ctx);
  });

  it('never stores a card number in clear', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    await withdraw(server, ivan, { amount: '1', pan: GOOD_CARD }, key());
    await withdraw(server, ivan, { amount: '1', pan: DECLINED_CARD }, key());
    await withdraw(server, ivan, { amount: '1', pan: '5555555555554444' });
    await runPayoutWorkerOnce(server.ctx);
    for (const card of ['4111111111111111', '4000000000000002', '5555555555554444', '4111 1111 1111 1111']) {
      expect(await tablesContaining(server, card), card).toEqual([]);
    }
    // The masked forms are what is kept (payouts, the sandbox's book, stored answers).
    expect(await tablesContaining(server, '411111******1111')).toEqual(
      expect.arrayContaining(['payouts', 'sandbox_payouts', 'idempotency_keys']),
    );
  });

  it('a payout that never reached the provider is released by the worker after the grace period', async () => {
    const ivan = await person(server, { rub: rub(100) });
    // The provider's call never arrived (as if the server stopped between holding the money and calling it).
    const created = await withPayoutCall(
      server,
      () => async () => {
        throw new PayoutUnavailable('connection reset');
      },
      () => withdraw(server, ivan, { amount: '40' }),
    );
    const payout = created.body.receipt;
    expect(await balance(server, ivan)).toBe('60.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    clock.advance(5 * 60_000 + 1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await balance(server, ivan)).toBe('100.00');
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${payout.id}`, { token: ivan.token });
    expect(receipt.body).toMatchObject({ status: 'failed' });
  });

  it('a lost webhook is recovered by asking the provider', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const created = await withdraw(server, ivan, { amount: '30' });
    // The sandbox settled and "sent" its callback, which never arrived.
    await server.ctx.db.query(
      `UPDATE sandbox_payouts SET notified_at = $2, status = 'succeeded' WHERE reference = $1`,
      [created.body.receipt.id, clock.now()],
    );
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`, {
      token: ivan.token,
    });
    expect(receipt.body.status).toBe('complete');
  });

  it('keeps a payout whose webhook was not accepted, and delivers it on a later pass', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const created = await withdraw(server, ivan, { amount: '20', pan: DECLINED_CARD });
    // The payout's row is locked by another writer: the webhook's settlement cannot proceed now.
    await server.ctx.db.query(`UPDATE payouts SET provider_ref = 'someone-else' WHERE id = $1`, [
      created.body.receipt.id,
    ]);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    expect(await balance(server, ivan)).toBe('80.00');
    const { rows } = await server.ctx.db.query<{ id: string; notified_at: Date | null }>(
      'SELECT id, notified_at FROM sandbox_payouts WHERE reference = $1',
      [created.body.receipt.id],
    );
    expect(rows[0]!.notified_at).toBeNull();
    await server.ctx.db.query('UPDATE payouts SET provider_ref = $2 WHERE id = $1', [
      created.body.receipt.id,
      rows[0]!.id,
    ]);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    clock.advance(2_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await balance(server, ivan)).toBe('100.00');
  });
});

describe(`withdrawal: the job system (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({
      clock,
      env: { SANDBOX_PAYOUT_DELAY_MS: '1000', JOBS: 'on', JOBS_POLL_SECONDS: '0.5' },
    });
  }, 60_000);
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  it('settles a payout once it is due, on its own', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const created = await withdraw(server, ivan, { amount: '10', pan: DECLINED_CARD });
    const receiptOf = async () =>
      (await server.call('GET', `/v2/wallet/withdrawal/${created.body.receipt.id}`, { token: ivan.token }))
        .body;
    // Not due yet: several worker passes go by and it stays pending.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await receiptOf()).status).toBe('pending');
    clock.advance(1000);
    const deadline = Date.now() + 10_000;
    while ((await receiptOf()).status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await receiptOf()).status).toBe('failed');
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('stops with the server context and can be stopped twice', async () => {
    await server.ctx.jobs.stop();
    await server.ctx.jobs.stop();
    expect(server.ctx.jobs.running).toBe(false);
    await fund(server.ctx, (await person(server)).userId, 1n);
  });
});
