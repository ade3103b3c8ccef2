/**
 * A merchant's settlements: its balance paid out to its bank account through the payouts provider, held out
 * of the merchant's ledger account (never the person's wallet), settled or returned once; on demand with
 * the PIN and daily by the job, once a day whatever runs it; refused for a merchant not approved and for bad
 * input; counted by the back office's reconciliation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runDailySettlements } from '../src/modules/merchants/settlements.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { PayoutRejected } from '../src/providers/payouts/payouts-provider.ts';
import {
  databaseLabel,
  secondContext,
  startTestServer,
  TestClock,
  type TestServer,
  usePostgres,
} from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  accountBalance,
  application,
  approvedMerchant,
  BANK_ACCOUNT,
  merchantAccount,
  type TestMerchant,
} from './merchant-helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { balance, gostAccount, key, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`merchant settlements (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let compliance: TestOperator;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    back = await startOps(server);
    compliance = await operator(server, back, 'compliance');
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  /** A payment of `roubles` to `merchant`, paid by a new person: the merchant's balance grows by it less the fee. */
  const paid = async (merchant: TestMerchant, roubles: number) => {
    const made = await merchant.api('POST', '/merchant/v1/payments', {
      body: {
        amount: `${roubles}.00`,
        currency: 'RUB',
        description: 'Заказ',
        order_id: 'o1',
        return_url: 'https://shop.example.ru/',
      },
    });
    const payer = await person(server, { rub: rub(roubles) });
    const res = await server.call('POST', `/v2/wallet/merchant-payments/${made.body.id}/pay`, {
      token: payer.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': key() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const settle = (
    merchant: TestMerchant,
    body: Record<string, unknown>,
    idempotencyKey = key(),
    language = 'ru',
  ) =>
    server.call('POST', '/v2/wallet/merchant/settlements', {
      token: merchant.owner.token,
      body,
      headers: { 'idempotency-key': idempotencyKey, 'accept-language': language },
    });
  const available = async (merchant: TestMerchant) => {
    const { rows } = await server.ctx.db.query<{ available: string }>(
      'SELECT balance - pending_debits AS available FROM ledger_accounts WHERE id = $1',
      [await merchantAccount(server, merchant.id)],
    );
    return BigInt(rows[0]!.available);
  };
  const list = async (merchant: TestMerchant) =>
    (await server.call('GET', '/v2/wallet/merchant/settlements', { token: merchant.owner.token })).body
      .results;

  it("pays the whole balance out on demand: held out of the merchant's account, settled once", async () => {
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 1000);
    const account = await merchantAccount(server, shop.id);
    expect(await accountBalance(server, account)).toBe(98_500n);
    const wallet = await balance(server, shop.owner);

    const res = await settle(shop, { pin: PIN });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.settlement).toMatchObject({
      status: 'pending',
      amount: '985.00',
      bank_account: BANK_ACCOUNT,
      origin: 'manual',
    });
    expect(await available(shop)).toBe(0n);
    expect(await accountBalance(server, account)).toBe(98_500n);
    expect(await balance(server, shop.owner)).toBe(wallet);

    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await accountBalance(server, account)).toBe(0n);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    expect(await list(shop)).toEqual([
      expect.objectContaining({ id: res.body.settlement.id, status: 'succeeded', amount: '985.00' }),
    ]);
    // Its receipt, the owner's alone.
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${res.body.settlement.id}`, {
      token: shop.owner.token,
    });
    expect(receipt.body).toMatchObject({ kind: 'withdrawal', status: 'complete', amount: '985.00' });
    const stranger = await person(server);
    expect(
      (await server.call('GET', `/v2/wallet/withdrawal/${res.body.settlement.id}`, { token: stranger.token }))
        .status,
    ).toBe(404);
    expect(await balance(server, shop.owner)).toBe(wallet);
  });

  it("the merchant account's statement: its payment, fee and settlement, for its owner only", async () => {
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 1000);
    await settle(shop, { pin: PIN });
    await runPayoutWorkerOnce(server.ctx);
    const account = await merchantAccount(server, shop.id);
    const own = await server.call('GET', '/v2/wallet/merchant', { token: shop.owner.token });
    expect(own.body.merchant.account_id).toBe(account);
    const url = `/v2/wallet/statement?account=${account}&date_from=2026-03-15&date_to=2026-03-15&format=csv`;
    const read = (token: string) =>
      server.app.inject({ method: 'GET', url, headers: { authorization: `Token ${token}` } });
    const csv = await read(shop.owner.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Вывод на расчётный счёт');
    expect(csv.body).toContain('-985');
    expect(csv.body).toContain('-15');
    const stranger = await read((await person(server)).token);
    expect(stranger.statusCode).toBe(404);
  });

  it('a new settlement account is confirmed with the PIN; other changes are not', async () => {
    const shop = await approvedMerchant(server, back, compliance);
    const patch = (body: Record<string, unknown>) =>
      server.call('PATCH', '/v2/wallet/merchant', { token: shop.owner.token, body });
    const other = gostAccount('40802810000000000077');
    expect((await patch({ bank_account: other })).body).toMatchObject({ code: 'FIELD_REQUIRED' });
    expect((await patch({ bank_account: other, pin: '0000' })).body.code).toBe('PIN_INVALID');
    expect((await patch({ bank_account: '40802810000000000078', pin: PIN })).body.code).toBe('FIELD_INVALID');
    const changed = await patch({ bank_account: other, pin: PIN });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.merchant.bank_account).toBe(other);
    expect((await patch({ name: 'Пироги', bank_account: other })).status).toBe(200);
  });

  it('a part of it; a repeat with the same key answers the first and pays once', async () => {
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 1000);
    const k = key();
    const first = await settle(shop, { amount: '300.00', pin: PIN }, k);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await settle(shop, { amount: '300.00', pin: PIN }, k);
    expect(again.body).toEqual(first.body);
    expect(await available(shop)).toBe(68_500n);
    expect(await list(shop)).toHaveLength(1);
    const other = await settle(shop, { amount: '100.00', pin: PIN }, k);
    expect(other.status).toBe(409);
    await runPayoutWorkerOnce(server.ctx);
  });

  it("the provider's refusal returns the money once; a late success changes nothing", async () => {
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 200);
    const provider = server.ctx.payouts;
    const payout = provider.payout.bind(provider);
    provider.payout = async () => {
      throw new PayoutRejected('the bank refused the account');
    };
    try {
      const res = await settle(shop, { pin: PIN });
      expect(res.status).toBe(200);
      expect(await available(shop)).toBe(19_700n);
      const [failed] = await list(shop);
      expect(failed).toMatchObject({ status: 'failed', failure_reason: 'Выплата отклонена' });
      expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
      const { settlePayout } = await import('../src/modules/payouts/index.ts');
      expect(await settlePayout(server.ctx, failed.id, { outcome: 'succeeded' })).toBe(false);
      expect(await available(shop)).toBe(19_700n);
      expect(await accountBalance(server, await merchantAccount(server, shop.id))).toBe(19_700n);
    } finally {
      provider.payout = payout;
    }
  });

  it('two settlements at once never take more than the balance', async () => {
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 500);
    const answers = await Promise.all([
      settle(shop, { amount: '492.50', pin: PIN }),
      settle(shop, { amount: '492.50', pin: PIN }),
      settle(shop, { pin: PIN }),
    ]);
    const codes = answers.map((a) => a.status).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(['INSUFFICIENT_FUNDS', 'MERCHANT_NOTHING_TO_SETTLE']).toContain(refused.body.code);
    expect(await available(shop)).toBe(0n);
    await runPayoutWorkerOnce(server.ctx);
    expect(await accountBalance(server, await merchantAccount(server, shop.id))).toBe(0n);
  });

  it('refuses a merchant not approved, a person without one, and bad input, in the caller’s language', async () => {
    const owner = await person(server, { level: 'full' });
    const none = await server.call('POST', '/v2/wallet/merchant/settlements', {
      token: owner.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': key() },
    });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('MERCHANT_NOT_FOUND');
    await server.call('POST', '/v2/wallet/merchant', { token: owner.token, body: application() });
    const pending = await server.call('POST', '/v2/wallet/merchant/settlements', {
      token: owner.token,
      body: { amount: '10.00', pin: PIN },
      headers: { 'idempotency-key': key() },
    });
    expect(pending.status).toBe(403);
    expect(pending.body.code).toBe('MERCHANT_NOT_ACTIVE');

    const shop = await approvedMerchant(server, back, compliance);
    const empty = await settle(shop, { pin: PIN }, key(), 'en');
    expect(empty.status).toBe(409);
    expect(empty.body).toMatchObject({
      code: 'MERCHANT_NOTHING_TO_SETTLE',
      message: "There is no money in the merchant's balance to pay out",
    });
    await paid(shop, 100);
    expect((await settle(shop, { amount: '1.234', pin: PIN })).body.code).toBe('AMOUNT_TOO_PRECISE');
    expect((await settle(shop, { amount: '0', pin: PIN })).body.code).toBe('AMOUNT_NOT_POSITIVE');
    expect((await settle(shop, { amount: 'много', pin: PIN })).status).toBe(400);
    expect((await settle(shop, { amount: '98.51', pin: PIN })).body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await settle(shop, { amount: '10.00' })).status).toBe(400);
    expect((await settle(shop, { amount: '10.00', pin: PIN, extra: 1 })).status).toBe(400);
    const wrong = await settle(shop, { amount: '10.00', pin: '0000' });
    expect(wrong.body.code).toBe('PIN_INVALID');
    // A rejected merchant's money, should it have any, stays until support decides.
    await server.ctx.db.query(`UPDATE merchants SET status = 'rejected' WHERE id = $1`, [shop.id]);
    expect((await settle(shop, { pin: PIN })).body.code).toBe('MERCHANT_NOT_ACTIVE');
    await server.ctx.db.query(`UPDATE merchants SET status = 'active' WHERE id = $1`, [shop.id]);
    expect(await available(shop)).toBe(9_850n);
    expect(await list(shop)).toEqual([]);
  });

  it("the back office's reconciliation counts settlements in merchants' balances", async () => {
    const finance = await operator(server, back, 'finance');
    const shop = await approvedMerchant(server, back, compliance);
    await paid(shop, 1000);
    await settle(shop, { amount: '500.00', pin: PIN });
    const date = new Date(server.clock.now().getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    const check = async () =>
      (await back.call('GET', `/ops/v1/reconciliation?date=${date}`, { token: finance.token })).body;
    const during = await check();
    expect(during.merchants.differences).toEqual([]);
    expect(during.merchants.settling).toBe('500.00');
    await runPayoutWorkerOnce(server.ctx);
    const after = await check();
    expect(after.merchants.differences).toEqual([]);
    expect(after.merchants.settling).toBe('0.00');
    expect(after.differences).toEqual([]);
  });
  it('the daily job settles each active merchant once a day, however many runs', async () => {
    // Last of the tests: it moves the clock on, past the operators' sessions.
    const a = await approvedMerchant(server, back, compliance);
    const b = await approvedMerchant(server, back, compliance);
    await paid(a, 100);
    await paid(b, 300);
    // Two runs at once; on PostgreSQL the second is another instance of the wallet.
    const second = usePostgres ? await secondContext(server) : null;
    try {
      const runs = await Promise.all([
        runDailySettlements(server.ctx),
        runDailySettlements(second ?? server.ctx),
      ]);
      expect(runs.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(2);
    } finally {
      await second?.stop();
    }
    expect(await list(a)).toEqual([expect.objectContaining({ amount: '98.50', origin: 'daily' })]);
    expect(await list(b)).toEqual([expect.objectContaining({ amount: '295.50', origin: 'daily' })]);
    // Paid again the same day: the day's run is done.
    await paid(a, 100);
    await runDailySettlements(server.ctx);
    expect(await list(a)).toHaveLength(1);
    expect(await available(a)).toBe(9_850n);
    // The next day's run takes it.
    clock.advance(86_400_000);
    await runDailySettlements(server.ctx);
    expect(await list(a)).toHaveLength(2);
    await runPayoutWorkerOnce(server.ctx);
    expect((await list(a)).map((s: { status: string }) => s.status)).toEqual(['succeeded', 'succeeded']);
  });
});
