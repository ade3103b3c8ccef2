/**
 * A merchant's refunds through its API: a money call of the one pipeline from the merchant's balance to the
 * payer's at once, full or partial, never above what is left (parallel refunds included), idempotent, and
 * refused without moving money for an unpaid or another merchant's payment or a short balance.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { accountBalance, approvedMerchant, merchantAccount, type TestMerchant } from './merchant-helpers.ts';
import { type OpsServer, operator, startOps } from './ops-helpers.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`merchant refunds (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let shop: TestMerchant;
  let other: TestMerchant;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    back = await startOps(server);
    const compliance = await operator(server, back, 'compliance');
    shop = await approvedMerchant(server, back, compliance);
    other = await approvedMerchant(server, back, compliance);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  /** A payment of `amount` made by `merchant` and paid by `payer`. */
  const paid = async (merchant: TestMerchant, payer: Person, amount: string) => {
    const made = await merchant.api('POST', '/merchant/v1/payments', {
      body: {
        amount,
        currency: 'RUB',
        description: 'Заказ',
        order_id: 'o1',
        return_url: 'https://shop.example.ru/',
      },
    });
    const res = await server.call('POST', `/v2/wallet/merchant-payments/${made.body.id}/pay`, {
      token: payer.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': key() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return made.body.id as string;
  };
  const refund = (
    merchant: TestMerchant,
    body: Record<string, unknown>,
    idempotencyKey = key(),
    language = 'ru',
  ) =>
    merchant.api('POST', '/merchant/v1/refunds', {
      body,
      headers: { 'idempotency-key': idempotencyKey, 'accept-language': language },
    });

  it('a full refund needs the whole amount in the balance: the fee is not returned', async () => {
    const payer = await person(server, { rub: rub(1000) });
    const id = await paid(other, payer, '1000.00');
    const whole = await refund(other, { payment_id: id, amount: '1000.00' });
    expect(whole.status).toBe(409);
    expect(whole.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(server, payer)).toBe('0.00');
  });

  it('refunds in part, then the rest; never above what is left; a repeat answers the first', async () => {
    const payer = await person(server, { rub: rub(5000) });
    await paid(shop, await person(server, { rub: rub(5000) }), '5000.00');
    const id = await paid(shop, payer, '1000.00');
    expect(await balance(server, payer)).toBe('4000.00');
    const account = await merchantAccount(server, shop.id);
    const before = await accountBalance(server, account);

    const k = key();
    const half = await refund(shop, { payment_id: id, amount: '500.00', reason: 'Половина заказа' }, k);
    expect(half.status, JSON.stringify(half.body)).toBe(200);
    expect(half.body).toMatchObject({
      payment_id: id,
      status: 'succeeded',
      amount: '500.00',
      reason: 'Половина заказа',
    });
    // The payer has it at once; the merchant's balance gave it.
    expect(await balance(server, payer)).toBe('4500.00');
    expect(before - (await accountBalance(server, account))).toBe(50_000n);
    expect(
      (await refund(shop, { payment_id: id, amount: '500.00', reason: 'Половина заказа' }, k)).body,
    ).toEqual(half.body);
    const conflict = await refund(shop, { payment_id: id, amount: '400.00' }, k);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');

    const over = await refund(shop, { payment_id: id, amount: '500.01' }, key(), 'en');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'REFUND_EXCEEDS' });
    expect(over.body.message).toContain('500.00');
    expect((await refund(shop, { payment_id: id, amount: '500.00' })).status).toBe(200);
    expect((await refund(shop, { payment_id: id, amount: '0.01' })).body.code).toBe('REFUND_EXCEEDS');
    expect(await balance(server, payer)).toBe('5000.00');

    const seen = await shop.api('GET', `/merchant/v1/payments/${id}`);
    expect(seen.body.refunded_amount).toBe('1000.00');
    const one = await shop.api('GET', `/merchant/v1/refunds/${half.body.id}`);
    expect(one.body).toEqual(half.body);
    expect((await other.api('GET', `/merchant/v1/refunds/${half.body.id}`)).body.code).toBe(
      'MERCHANT_REFUND_NOT_FOUND',
    );
    const history = await server.call('GET', '/v2/wallet/transaction', { token: payer.token });
    expect(history.body.results[0].description).toContain('Торты Марины');
    // The dashboard's list: the owner's merchant's refunds, newest first; none for another person.
    const listed = await server.call('GET', '/v2/wallet/merchant/refunds', { token: shop.owner.token });
    expect(listed.body.results).toContainEqual(half.body);
    expect(listed.body.results).toHaveLength(2);
    const stranger = await server.call('GET', '/v2/wallet/merchant/refunds', { token: payer.token });
    expect(stranger.body.code).toBe('MERCHANT_NOT_FOUND');
  });

  it("refuses an unpaid or another merchant's payment and bad amounts, moving nothing", async () => {
    const payer = await person(server, { rub: rub(1000) });
    const id = await paid(shop, payer, '100.00');
    expect((await refund(other, { payment_id: id, amount: '10.00' })).body.code).toBe(
      'MERCHANT_PAYMENT_NOT_FOUND',
    );
    expect((await refund(shop, { payment_id: randomUUID(), amount: '10.00' })).status).toBe(404);
    const unpaid = await shop.api('POST', '/merchant/v1/payments', {
      body: {
        amount: '10.00',
        currency: 'RUB',
        description: 'x',
        order_id: 'o',
        return_url: 'https://shop.example.ru/',
      },
    });
    const notPaid = await refund(shop, { payment_id: unpaid.body.id, amount: '10.00' });
    expect(notPaid.status).toBe(409);
    expect(notPaid.body.code).toBe('REFUND_NOT_ALLOWED');
    expect((await refund(shop, { payment_id: id, amount: '1.001' })).body.code).toBe('AMOUNT_TOO_PRECISE');
    expect((await refund(shop, { payment_id: id, amount: '0' })).body.code).toBe('AMOUNT_NOT_POSITIVE');
    expect(await balance(server, payer)).toBe('900.00');
  });

  it("the back office's reconciliation counts merchants: each balance matches its payments, refunds and fees", async () => {
    const finance = await operator(server, back, 'finance');
    const check = async () =>
      (await back.call('GET', '/ops/v1/reconciliation?date=2026-03-15', { token: finance.token })).body
        .merchants;
    const clean = await check();
    expect(clean.count).toBe(2);
    expect(clean.differences).toEqual([]);
    const { rows } = await server.ctx.db.query<{ balance: string }>(
      `SELECT sum(a.balance) AS balance FROM merchants m JOIN ledger_accounts a ON a.id = m.account_id`,
    );
    expect(clean.balance).toBe(
      `${(BigInt(rows[0]!.balance) / 100n).toString()}.${(BigInt(rows[0]!.balance) % 100n).toString().padStart(2, '0')}`,
    );
    // A payment marked paid without its money is found.
    const made = await shop.api('POST', '/merchant/v1/payments', {
      body: {
        amount: '10.00',
        currency: 'RUB',
        description: 'x',
        order_id: 'o',
        return_url: 'https://shop.example.ru/',
      },
    });
    await server.ctx.db.query(`UPDATE merchant_payments SET status = 'succeeded' WHERE id = $1`, [
      made.body.id,
    ]);
    const found = await check();
    expect(found.differences).toEqual([expect.objectContaining({ merchant: shop.id, name: 'Торты Марины' })]);
    await server.ctx.db.query(`UPDATE merchant_payments SET status = 'canceled' WHERE id = $1`, [
      made.body.id,
    ]);
  });

  it('parallel refunds never exceed the payment', async () => {
    const payer = await person(server, { rub: rub(1000) });
    const id = await paid(shop, payer, '1000.00');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refund(shop, { payment_id: id, amount: '300.00' })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    for (const lost of answers.filter((a) => a.status !== 200)) expect(lost.body.code).toBe('REFUND_EXCEEDS');
    expect(await balance(server, payer)).toBe('900.00');
  });
});
