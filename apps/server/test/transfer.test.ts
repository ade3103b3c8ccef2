/**
 * Transfers between wallet users through the API: recipient lookup (masked name only), the journey
 * seen from both sides, PIN, level permissions and limits on both sides, currencies, idempotency.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { walletQrText } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pinHash } from '../src/modules/auth/pin.ts';
import { RECIPIENT_LOOKUPS } from '../src/modules/transfer/service.ts';
import { pay } from './door.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, uniquePhone } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { watch } from './watch.ts';
import { balance, key, notificationKinds, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`transfers (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  function send(
    from: Person,
    to: string,
    body: Partial<{ amount: string; currency_code: string; pin: string }> = {},
    idempotencyKey?: string,
  ) {
    return server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to, amount: '100.00', currency_code: 'RUB', pin: PIN, ...body },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  }

  it('finds a recipient by phone and shows only a masked name', async () => {
    const ivan = await person(server);
    const petr = await person(server);
    const found = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(petr.phone)}`,
      {
        token: ivan.token,
      },
    );
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ status: 'success', name: 'Иван П.', phone: petr.phone });

    const unknown = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`,
      { token: ivan.token },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('RECIPIENT_NOT_FOUND');
    const self = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(ivan.phone)}`,
      {
        token: ivan.token,
      },
    );
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('RECIPIENT_SELF');
    const bad = await server.call('GET', '/v2/wallet/transfer/recipient?phone=123', { token: ivan.token });
    expect(bad.status).toBe(400);
    const signedOut = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(petr.phone)}`,
    );
    expect(signedOut.status).toBe(401);
  });

  it('limits lookups per sender, so nobody walks the phone book', async () => {
    const ivan = await person(server);
    for (let i = 1; i < RECIPIENT_LOOKUPS.max; i++) {
      await server.call('GET', `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`, {
        token: ivan.token,
      });
    }
    const last = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`,
      {
        token: ivan.token,
      },
    );
    expect(last.body.code).toBe('RECIPIENT_NOT_FOUND');
    const refused = await server.call(
      'GET',
      `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`,
      { token: ivan.token },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    clock.advance(RECIPIENT_LOOKUPS.windowSeconds * 1000 + 1000);
  });

  it('shares the lookup limit with payments that resolve a phone, and checks the PIN first', async () => {
    const ivan = await person(server, { rub: rub(10) });
    const petr = await person(server);
    // A wrong PIN tells nothing about the phone and is not a lookup: the PIN's own guard counts it.
    const wrongPin = await send(ivan, uniquePhone(), { pin: '9999' });
    expect(wrongPin.body.code).toBe('PIN_INVALID');
    await server.ctx.db.query('UPDATE users SET pin_failures = 0 WHERE id = $1', [ivan.userId]);
    // Unknown phones through the transfer, refusals that reveal a wallet user, and plain lookups.
    const half = Math.floor(RECIPIENT_LOOKUPS.max / 2);
    for (let i = 0; i < half; i++)
      expect((await send(ivan, uniquePhone())).body.code).toBe('RECIPIENT_NOT_FOUND');
    expect((await send(ivan, petr.phone, { amount: '11' })).body.code).toBe('INSUFFICIENT_FUNDS');
    for (let i = half + 1; i < RECIPIENT_LOOKUPS.max; i++) {
      await server.call('GET', `/v2/wallet/transfer/recipient?phone=${encodeURIComponent(uniquePhone())}`, {
        token: ivan.token,
      });
    }
    expect((await send(ivan, uniquePhone())).body.code).toBe('RATE_LIMITED');
    const qr = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: { qr: walletQrText(uniquePhone(), '1.00'), currency_code: 'RUB', pin: PIN },
    });
    expect(qr.body.code).toBe('RATE_LIMITED');
    // A payment that goes through is not a free probe (it costs money and tells the recipient).
    expect((await send(ivan, petr.phone, { amount: '1' })).status).toBe(200);
    clock.advance(RECIPIENT_LOOKUPS.windowSeconds * 1000 + 1000);
  });

  it('moves the money; both sides see it in balances, history and notifications', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const sent = await send(ivan, petr.phone, { amount: '250.50' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({
      status: 'success',
      message: 'Перевод выполнен',
      receipt: {
        kind: 'transfer',
        status: 'complete',
        amount: '250.50',
        currency_code: 'RUB',
        counterparty: 'Иван П.',
        card: null,
        failure_reason: null,
      },
    });
    expect(await balance(server, ivan)).toBe('749.50');
    expect(await balance(server, petr)).toBe('250.50');

    const senderHistory = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    expect(senderHistory.body.results.find((t: { kind: string }) => t.kind === 'transfer')).toMatchObject({
      id: sent.body.receipt.id,
      amount: '-250.50',
      kind: 'transfer',
      status: 'complete',
      description: 'Перевод: Иван П.',
    });
    const recipientHistory = await server.call('GET', '/v2/wallet/transaction', { token: petr.token });
    expect(recipientHistory.body.results[0]).toMatchObject({
      id: sent.body.receipt.id,
      amount: '250.50',
      kind: 'transfer',
      description: 'Перевод: Иван П.',
    });
    // The ledger notifies each side once: no second notification from the transfer module.
    expect((await notificationKinds(server, ivan)).filter((k) => k.startsWith('money_')).sort()).toEqual([
      'money_in_topup',
      'money_out_transfer',
    ]);
    expect((await notificationKinds(server, petr)).filter((k) => k.startsWith('money_'))).toEqual([
      'money_in_transfer',
    ]);
    const seen = await server.call('GET', '/v2/wallet/user/notification', { token: petr.token });
    expect(seen.body.results.map((n: { message: string }) => n.message)).toContain(
      'Вам поступил перевод 250,50\u00a0₽. Отправитель: Иван П.',
    );
  });

  it('checks the PIN, the balance, the recipient and the amount, and moves nothing when refusing', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    const wrongPin = await send(ivan, petr.phone, { pin: '0000' });
    expect(wrongPin.body.code).toBe('PIN_INVALID');
    const tooMuch = await send(ivan, petr.phone, { amount: '100.01' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    const self = await send(ivan, ivan.phone);
    expect(self.body.code).toBe('RECIPIENT_SELF');
    const nobody = await send(ivan, uniquePhone());
    expect(nobody.body.code).toBe('RECIPIENT_NOT_FOUND');
    for (const [amount, code] of [
      ['0', 'AMOUNT_NOT_POSITIVE'],
      ['-1', 'AMOUNT_INVALID'],
      ['1.001', 'AMOUNT_TOO_PRECISE'],
      ['x', 'AMOUNT_INVALID'],
      ['10000000000000000', 'AMOUNT_TOO_LARGE'],
    ]) {
      expect((await send(ivan, petr.phone, { amount })).body.code, amount).toBe(code);
    }
    expect((await send(ivan, petr.phone, { currency_code: 'JPY' })).body.code).toBe('CURRENCY_NOT_SUPPORTED');
    expect(await balance(server, ivan)).toBe('100.00');
    expect(await balance(server, petr)).toBe('0.00');
  });

  it('follows both levels: anonymous may not send to people; the recipient’s balance cap holds', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(1000) });
    const petr = await person(server);
    const refused = await send(anon, petr.phone);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TRANSFER_NOT_ALLOWED');

    const rich = await person(server, { level: 'full', rub: rub(20_000) });
    const poor = await person(server, { level: 'anonymous', rub: rub(10_000) });
    const over = await send(rich, poor.phone, { amount: '5000.01' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('RECIPIENT_UNAVAILABLE');
    expect((await send(rich, poor.phone, { amount: '5000' })).status).toBe(200);
    expect(await balance(server, poor)).toBe('15000.00');
  });

  it('counts transfers in the sender’s monthly limit', async () => {
    const ivan = await person(server, { rub: rub(250_000) });
    const petr = await person(server, { level: 'full' });
    expect((await send(ivan, petr.phone, { amount: '150000' })).status).toBe(200);
    expect((await send(ivan, petr.phone, { amount: '50000' })).status).toBe(200);
    const over = await send(ivan, petr.phone, { amount: '0.01' });
    expect(over.body.code).toBe('LIMIT_MONTHLY');
  });

  it('sends other currencies, opening the account a recipient lacks (docs/decisions/exchange.md#exchange-between-ones-own-accounts)', async () => {
    const ivan = await person(server, { rub: rub(10) });
    const petr = await person(server);
    expect((await send(ivan, petr.phone, { currency_code: 'USD' })).body.code).toBe('ACCOUNT_NOT_FOUND');
    await fund(server.ctx, ivan.userId, 50_00n, 'USD');
    // A refused transfer opens nothing.
    expect((await send(ivan, petr.phone, { currency_code: 'USD', amount: '60' })).body.code).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(await balance(server, petr, 'USD')).toBeUndefined();
    const sent = await send(ivan, petr.phone, { currency_code: 'USD', amount: '10' });
    expect(sent.status).toBe(200);
    expect(await balance(server, ivan, 'USD')).toBe('40.00');
    expect(await balance(server, petr, 'USD')).toBe('10.00');
    const again = await send(ivan, petr.phone, { currency_code: 'USD', amount: '5' });
    expect(again.status).toBe(200);
    expect(await balance(server, petr, 'USD')).toBe('15.00');
  });

  it('is one statement once the instance knows its people, and a refused call keeps no key', async () => {
    const ivan = await person(server, { rub: rub(250_000) });
    const petr = await person(server, { level: 'full' });
    const k = key();
    const watching = watch(server.ctx.db);
    try {
      expect((await send(ivan, petr.phone, { amount: '10' }, key())).status).toBe(200);
      expect(watching.asked.filter((sql) => /ledger_pay/.test(sql))).toHaveLength(1);
      expect(watching.asked).not.toContain('tx');
      // The first payment read what the antifraud check asks (the local fraud list and the trusted
      // person, docs/decisions/antifraud.md#antifraud-and-the-trusted-person); once this instance knows Ivan
      // has no trusted person and has read the local list, a payment is the door's one statement.
      expect((await send(ivan, petr.phone, { amount: '2' }, key())).status).toBe(200);
      watching.asked.length = 0;
      expect((await send(ivan, petr.phone, { amount: '3' }, key())).status).toBe(200);
      expect(watching.asked.filter((sql) => !/FROM sessions/.test(sql))).toEqual([
        expect.stringMatching(/ledger_pay/),
      ]);

      watching.asked.length = 0;
      // Over the monthly limit (200 000 at 'simplified'): the statement names the limit with what is
      // left, and the refusal counts as a lookup of the phone.
      const over = await send(ivan, petr.phone, { amount: '199990.01' }, k);
      expect(over.body.code).toBe('LIMIT_MONTHLY');
      expect(over.body.message).toContain('199');
      expect(watching.asked.filter((sql) => !/FROM sessions/.test(sql))).toEqual([
        expect.stringMatching(/ledger_pay/),
        expect.stringMatching(/INSERT INTO rate_limits/),
      ]);
    } finally {
      watching.stop();
    }
    // Nothing of the refused call is kept: its key serves the next request.
    expect((await send(ivan, petr.phone, { amount: '5' }, k)).status).toBe(200);
    expect(await balance(server, ivan)).toBe('249980.00');
    expect(await balance(server, petr)).toBe('20.00');
  });

  it('a hint proven wrong costs one refused statement, never a wrong answer', async () => {
    const ivan = await person(server, { rub: rub(20_000) });
    const petr = await person(server, { level: 'anonymous' });
    const db = server.ctx.db;
    expect((await send(ivan, petr.phone, { amount: '1' })).status).toBe(200);

    // A wrong PIN against the hint: refused by the statement, then counted once by the PIN's guard.
    const wrong = await send(ivan, petr.phone, { amount: '1', pin: '9999' });
    expect(wrong.body.code).toBe('PIN_INVALID');
    expect((await db.query('SELECT pin_failures FROM users WHERE id = $1', [ivan.userId])).rows).toEqual([
      { pin_failures: 1 },
    ]);
    // The right PIN with a failure counted: the statement refuses, the guard resets the count.
    expect((await send(ivan, petr.phone, { amount: '1' })).status).toBe(200);
    expect((await send(ivan, petr.phone, { amount: '1' })).status).toBe(200);

    // The PIN changed elsewhere (another instance): the old PIN is wrong, the new one right.
    const salt = randomBytes(16);
    await db.query('UPDATE users SET pin_hash = $2, pin_salt = $3 WHERE id = $1', [
      ivan.userId,
      pinHash(server.ctx.config.PIN_KEY, salt, '4321'),
      salt,
    ]);
    expect((await send(ivan, petr.phone, { amount: '1' })).body.code).toBe('PIN_INVALID');
    expect((await send(ivan, petr.phone, { amount: '1', pin: '4321' })).status).toBe(200);
    expect((await send(ivan, petr.phone, { amount: '1', pin: '4321' })).status).toBe(200);

    // The recipient's level raised elsewhere (15 000 RUB cap when anonymous): the new level's cap
    // applies at once.
    expect((await send(ivan, petr.phone, { amount: '15000', pin: '4321' })).body.code).toBe(
      'RECIPIENT_UNAVAILABLE',
    );
    expect((await send(ivan, petr.phone, { amount: '1', pin: '4321' })).status).toBe(200); // hints again
    await db.query(`UPDATE users SET identification_level = 'full' WHERE id = $1`, [petr.userId]);
    expect((await send(ivan, petr.phone, { amount: '15000', pin: '4321' })).status).toBe(200);
    expect(await balance(server, petr)).toBe('15006.00');
  });

  it('ledger_pay names the rule it refuses by, with its figures, and moves nothing', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const db = server.ctx.db;
    const { rows } = await db.query<{ pin_hash: Buffer }>('SELECT pin_hash FROM users WHERE id = $1', [
      ivan.userId,
    ]);
    const proven = rows[0]!.pin_hash;
    const rules = (simplified: Record<string, unknown>) =>
      JSON.stringify({
        ...JSON.parse(server.ctx.config.levelRulesJson),
        simplified: {
          ...JSON.parse(server.ctx.config.levelRulesJson).simplified,
          ...simplified,
        },
      });
    const attempt = (options: { rules?: string; pinProof?: Buffer; amount?: bigint; key?: string } = {}) =>
      pay(db, {
        id: randomUUID(),
        payer: ivan.userId,
        payee: petr.userId,
        currency: 'RUB',
        amount: options.amount ?? rub(100),
        kind: 'transfer',
        description: { debit: { ru: 'Перевод', en: 'Transfer' }, credit: { ru: 'Перевод', en: 'Transfer' } },
        at: clock.now(),
        rules: options.rules ?? server.ctx.config.levelRulesJson,
        pinProof: options.pinProof ?? proven,
        call: {
          name: 'transfer',
          key: options.key ?? 'direct-key',
          requestHash: 'hash',
          answer: { status: 'success' },
        },
      });
    const refused = (rule: string, figures: Record<string, string> = {}) => ({
      outcome: 'refused',
      refusal: { rule, ...figures },
    });
    expect(await attempt({ pinProof: Buffer.alloc(32) })).toEqual(refused('pin'));
    expect(await attempt({ rules: rules({ transfer: false }) })).toEqual(refused('transfer_not_allowed'));
    expect(await attempt({ rules: rules({ monthly_outgoing_max: '9999' }) })).toEqual(
      refused('limit_monthly', { limit: '9999', left: '9999' }),
    );
    expect(await attempt({ rules: rules({ balance_max: '9999' }) })).toEqual(
      refused('recipient_limit_balance', { limit: '9999' }),
    );
    expect(await attempt({ amount: rub(1000) + 1n })).toEqual(refused('insufficient_funds'));
    await db.query('UPDATE users SET pin_failures = 1 WHERE id = $1', [ivan.userId]);
    expect(await attempt()).toEqual(refused('pin'));
    await db.query('UPDATE users SET pin_failures = 0 WHERE id = $1', [ivan.userId]);
    expect(await balance(server, ivan)).toBe('1000.00');
    const kept = await db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', ['direct-key']);
    expect(kept.rows).toHaveLength(0);

    expect(await attempt()).toEqual({ outcome: 'created' });
    expect(await balance(server, petr)).toBe('100.00');
    // The key is now taken: a repeat answers the stored answer and moves nothing, for the PIN only.
    expect(await attempt({ amount: rub(1) })).toEqual({
      outcome: 'repeated',
      requestHash: 'hash',
      answer: { status: 'success' },
    });
    expect(await attempt({ pinProof: Buffer.alloc(32) })).toEqual(refused('pin'));
    expect(await balance(server, petr)).toBe('100.00');
  });

  it('a repeated Idempotency-Key answers the first receipt and moves money once', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const k = key();
    const first = await send(ivan, petr.phone, { amount: '300' }, k);
    const second = await send(ivan, petr.phone, { amount: '300' }, k);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    // The key keeps a reference to the transfer, which holds the receipt; the repeat made it again.
    const stored = await server.ctx.db.query<{ answer: Record<string, string> }>(
      'SELECT answer FROM idempotency_keys WHERE key = $1',
      [k],
    );
    expect(stored.rows[0]!.answer).toEqual({
      kept: first.body.receipt.id,
      counterparty: expect.any(String),
      language: 'ru',
    });
    expect(await balance(server, ivan)).toBe('700.00');
    expect(await balance(server, petr)).toBe('300.00');
    expect((await send(ivan, petr.phone, { amount: '301' }, k)).body.code).toBe('IDEMPOTENCY_CONFLICT');
    // The same key on another call is another operation.
    const other = await server.call('POST', '/v2/wallet/withdrawal', {
      token: ivan.token,
      body: { amount: '1', pan: '4111111111111111', currency_code: 'RUB', pin: PIN },
      headers: { 'idempotency-key': k },
    });
    expect(other.status).toBe(200);
    expect(await balance(server, ivan)).toBe('699.00');
  });
});
