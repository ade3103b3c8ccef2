/**
 * Paying a merchant through the API: the payer's view, the pay as a money call of the one pipeline (the
 * merchant's account credited and the fee moved to 'fees' in the same ledger transaction, the receipt and
 * history naming the merchant with its INN, a repeated key answering the first answer), at the anonymous
 * level too; refusals (own payment, cancelled, expired, wrong PIN, no money) move nothing; 50 parallel pays
 * of one payment move money once; a static QR's payment is its payer's alone.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { accountBalance, approvedMerchant, merchantAccount, type TestMerchant } from './merchant-helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`paying a merchant (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let compliance: TestOperator;
  let shop: TestMerchant;
  let fees: string;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    back = await startOps(server);
    compliance = await operator(server, back, 'compliance');
    shop = await approvedMerchant(server, back, compliance);
    const { rows } = await server.ctx.db.query<{ id: string }>(
      `SELECT id FROM ledger_accounts WHERE user_id IS NULL AND purpose = 'fees' AND currency = 'RUB'`,
    );
    fees = rows[0]!.id;
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const create = async (amount = '1000.00', extra: Record<string, unknown> = {}) => {
    const made = await shop.api('POST', '/merchant/v1/payments', {
      body: {
        amount,
        currency: 'RUB',
        description: 'Торт',
        order_id: `o-${randomUUID()}`,
        return_url: 'https://cakes.example.ru/done',
        ...extra,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.id as string;
  };
  const pay = (
    who: Person,
    id: string,
    idempotencyKey = key(),
    body: Record<string, unknown> = { pin: PIN },
  ) =>
    server.call('POST', `/v2/wallet/merchant-payments/${id}/pay`, {
      token: who.token,
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });

  it('pays once: the merchant gets the amount less the fee, the fee goes to fees, a repeat answers the first', async () => {
    const payer = await person(server, { rub: rub(5000) });
    const id = await create('1000.00');
    const view = await server.call('GET', `/v2/wallet/merchant-payments/${id}`, { token: payer.token });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      status: 'pending',
      amount: '1000.00',
      fee: '0.00',
      description: 'Торт',
      merchant: { name: 'Торты Марины', inn: '500100732259', verified: true },
      return_url: 'https://cakes.example.ru/done',
    });

    const account = await merchantAccount(server, shop.id);
    const merchantBefore = await accountBalance(server, account);
    const feesBefore = await accountBalance(server, fees);
    const k = key();
    const paid = await pay(payer, id, k);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.receipt).toMatchObject({
      kind: 'payment',
      status: 'complete',
      amount: '1000.00',
      counterparty: 'Торты Марины, ИНН 500100732259',
    });
    expect(await balance(server, payer)).toBe('4000.00');
    // 1.5% of 1000 ₽ is 15 ₽: the merchant keeps 985 ₽.
    expect((await accountBalance(server, account)) - merchantBefore).toBe(98_500n);
    expect((await accountBalance(server, fees)) - feesBefore).toBe(1_500n);
    const { rows } = await server.ctx.db.query<{ kind: string; n: string }>(
      `SELECT kind, count(*) AS n FROM ledger_transfers WHERE reference_type = 'merchant_payment' AND reference_id = $1
       GROUP BY kind ORDER BY kind`,
      [id],
    );
    expect(rows.map((r) => [r.kind, Number(r.n)])).toEqual([
      ['fee', 1],
      ['payment', 1],
    ]);

    const repeat = await pay(payer, id, k);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(paid.body);
    const again = await pay(payer, id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('MERCHANT_PAYMENT_PAID');
    expect(await balance(server, payer)).toBe('4000.00');

    const history = await server.call('GET', '/v2/wallet/transaction', { token: payer.token });
    expect(history.body.results[0].description).toContain('Торты Марины, ИНН 500100732259');
    // The history files it under the merchant's activity: MCC 5462 (bakeries) is groceries.
    expect(history.body.results[0].category).toMatchObject({ id: 'groceries' });
    const seen = await shop.api('GET', `/merchant/v1/payments/${id}`);
    expect(seen.body).toMatchObject({ status: 'succeeded', payer: 'Иван П.' });
    expect(seen.body.paid_at).not.toBeNull();
    const own = await server.call('GET', '/v2/wallet/merchant', { token: shop.owner.token });
    expect(own.body.merchant.balance).toBe(
      ((await accountBalance(server, account)) / 100n).toString().concat('.00'),
    );
    // Another person sees it paid.
    const stranger = await person(server, { rub: rub(1000) });
    const late = await server.call('GET', `/v2/wallet/merchant-payments/${id}`, { token: stranger.token });
    expect(late.body.status).toBe('succeeded');
    expect((await pay(stranger, id)).body.code).toBe('MERCHANT_PAYMENT_PAID');
  });

  it('is allowed at the anonymous level (a payment to a merchant), the monthly limit applies', async () => {
    // The test's money comes past the balance cap; the month's 40 000 ₽ of outgoing money is the limit.
    const payer = await person(server, { level: 'anonymous', rub: rub(41_000) });
    const paid = await pay(payer, await create('40000.00'));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const over = await pay(payer, await create('1.00'));
    expect(over.body.code).toBe('LIMIT_MONTHLY');
    expect(await balance(server, payer)).toBe('1000.00');
  });

  it('refuses and moves nothing: own payment, cancelled, expired, wrong PIN, no money, unknown', async () => {
    const payer = await person(server, { rub: rub(100) });
    const ownPay = await pay(shop.owner, await create());
    expect(ownPay.body.code).toBe('MERCHANT_PAYMENT_OWN');

    const canceled = await create('10.00');
    await shop.api('POST', `/merchant/v1/payments/${canceled}/cancel`);
    expect((await pay(payer, canceled)).body.code).toBe('MERCHANT_PAYMENT_CLOSED');

    const expiring = await create('10.00', { expires_in: 60 });
    clock.advance(61_000);
    expect((await pay(payer, expiring)).body.code).toBe('MERCHANT_PAYMENT_CLOSED');

    const wrongPin = await pay(payer, await create('10.00'), key(), { pin: '9999' });
    expect(wrongPin.status).toBe(400);
    expect(wrongPin.body.code).toMatch(/PIN/);

    const poor = await pay(payer, await create('1000.00'));
    expect(poor.body.code).toBe('INSUFFICIENT_FUNDS');
    const unknown = await pay(payer, randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('MERCHANT_PAYMENT_NOT_FOUND');
    const noKey = await server.call('POST', `/v2/wallet/merchant-payments/${randomUUID()}/pay`, {
      token: payer.token,
      body: {},
    });
    expect(noKey.status).toBe(400);
    expect(await balance(server, payer)).toBe('100.00');
  });

  it('50 parallel pays of one payment move money once', async () => {
    const payers = await Promise.all([1, 2, 3, 4, 5].map(() => person(server, { rub: rub(1000) })));
    const id = await create('300.00');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => pay(payers[i % payers.length]!, id)),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200))
      expect(lost.body.code).toBe('MERCHANT_PAYMENT_PAID');
    const { rows } = await server.ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_transfers WHERE reference_type = 'merchant_payment' AND reference_id = $1
         AND kind = 'payment'`,
      [id],
    );
    expect(Number(rows[0]!.n)).toBe(1);
    const balances = await Promise.all(payers.map((who) => balance(server, who)));
    expect(balances.filter((b) => b === '700.00')).toHaveLength(1);
    expect(balances.filter((b) => b === '1000.00')).toHaveLength(4);
  });

  it("a static QR's payment: the typed amount, the payer's alone, then paid as any other", async () => {
    const payer = await person(server, { rub: rub(1000) });
    const made = await server.call('POST', '/v2/wallet/merchant-payments', {
      token: payer.token,
      body: { merchant: shop.id, amount: '250.50', comment: 'Кофе' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ status: 'pending', amount: '250.50', description: 'Кофе' });
    const stranger = await person(server, { rub: rub(1000) });
    expect((await pay(stranger, made.body.id)).status).toBe(404);
    expect((await pay(payer, made.body.id)).status).toBe(200);
    expect(await balance(server, payer)).toBe('749.50');

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ merchant: randomUUID(), amount: '10.00' }, 'MERCHANT_NOT_FOUND'],
      [{ merchant: shop.id, amount: '0.50' }, 'MERCHANT_AMOUNT_TOO_SMALL'],
      [{ merchant: shop.id, amount: '1.001' }, 'AMOUNT_TOO_PRECISE'],
      [{ merchant: shop.id, amount: '10', comment: 'a\u202eb' }, 'FIELD_INVALID'],
    ];
    for (const [body, code] of refusals) {
      const res = await server.call('POST', '/v2/wallet/merchant-payments', { token: payer.token, body });
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const own = await server.call('POST', '/v2/wallet/merchant-payments', {
      token: shop.owner.token,
      body: { merchant: shop.id, amount: '10.00' },
    });
    expect(own.body.code).toBe('MERCHANT_PAYMENT_OWN');
  });

  it('says before the PIN what would refuse the pay: too little money, a frozen wallet, one already paid', async () => {
    const check = (who: Person, id: string, language = 'ru') =>
      server.call('POST', `/v2/wallet/merchant-payments/${id}/pay/check`, {
        token: who.token,
        headers: { 'accept-language': language },
      });
    const codes = (answer: { body: { problems: { code: string }[] } }) =>
      answer.body.problems.map((p) => p.code);
    const payer = await person(server, { rub: rub(500) });
    const id = await create('1000.00');
    const short = await check(payer, id);
    expect(short.status, JSON.stringify(short.body)).toBe(200);
    expect(short.body.ok).toBe(false);
    expect(codes(short)).toEqual(['INSUFFICIENT_FUNDS']);
    expect((await check(payer, id, 'en')).body.problems[0].message).toMatch(/[A-Za-z]/);
    const cheap = await create('100.00');
    const fine = await check(payer, cheap);
    expect(fine.body).toMatchObject({ ok: true, problems: [] });
    // Nothing moved by asking.
    expect(await balance(server, payer)).toBe('500.00');
    expect((await pay(payer, cheap)).status).toBe(200);
    expect(codes(await check(payer, cheap))).toEqual(['MERCHANT_PAYMENT_PAID']);
    expect(codes(await check(shop.owner, await create('10.00')))).toEqual(['MERCHANT_PAYMENT_OWN']);
    const frozen = await server.call('POST', '/v2/wallet/freeze', { token: payer.token, body: {} });
    expect(frozen.status).toBe(200);
    expect(codes(await check(payer, await create('10.00')))).toContain('WALLET_FROZEN');
    expect((await check(payer, randomUUID())).body.code).toBe('MERCHANT_PAYMENT_NOT_FOUND');
  });
});
