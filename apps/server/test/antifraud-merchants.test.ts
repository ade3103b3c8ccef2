/**
 * Issue 53's finding 1 on the paths that came after it (docs/security.md, 'Antifraud and the trusted
 * person: which paths are judged'): paying a merchant is judged by the same signs and the trusted person
 * as a transfer is, a merchant never paid before is a new payee, and a held payment is paid to the
 * merchant only when released. Written as the attack: a session and PIN in a scammer's hands paying a
 * mule's approved merchant.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runDailySettlements } from '../src/modules/merchants/settlements.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { ownCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { accountBalance, approvedMerchant, merchantAccount, type TestMerchant } from './merchant-helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import {
  balance,
  gostAccount,
  notificationKinds,
  type Person,
  PIN,
  person,
  settledPerson,
  trustedPair,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const HOUR = 3_600_000;

describe(`antifraud on paying a merchant (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let compliance: TestOperator;
  let mule: TestMerchant;
  let bakery: TestMerchant;
  let cafe: TestMerchant;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
    back = await startOps(server);
    compliance = await operator(server, back, 'compliance');
    mule = await approvedMerchant(server, back, compliance, { name: 'Гаджеты оптом' });
    // Made now: the operators' sessions do not outlive the tests' later days.
    bakery = await approvedMerchant(server, back, compliance, { name: 'Пекарня' });
    cafe = await approvedMerchant(server, back, compliance, { name: 'Кафе' });
  });
  afterEach(() => expectLedgerSound(server));
  afterAll(() => server.close());

  const bill = async (shop: TestMerchant, amount: string) => {
    const made = await shop.api('POST', '/merchant/v1/payments', {
      body: {
        amount,
        currency: 'RUB',
        description: 'Заказ',
        order_id: `o-${randomUUID()}`,
        return_url: 'https://gadgets.example.ru/done',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.id as string;
  };
  const pay = (who: Person, id: string) =>
    server.call('POST', `/v2/wallet/merchant-payments/${id}/pay`, {
      token: who.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': randomUUID() },
    });
  /** The trusted person's approval of a held payment, with their PIN. */
  const approve = (trusted: Person, holdId: string) =>
    server.call('POST', `/v2/wallet/approvals/${holdId}/approve`, {
      token: trusted.token,
      body: { pin: PIN },
    });
  const paymentStatus = async (id: string) =>
    (await mule.api('GET', `/merchant/v1/payments/${id}`)).body.status as string;

  it('holds a fresh session’s 18 000 ₽ to a merchant never paid; the merchant is paid only on release', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(40_000) });
    const account = await merchantAccount(server, mule.id);
    const before = await accountBalance(server, account);
    const id = await bill(mule, '18000.00');
    const held = await pay(ivan, id);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body.reasons).toContain('new_session');
    expect(await balance(server, ivan)).toBe('22000.00');
    expect(await accountBalance(server, account)).toBe(before);
    expect(await paymentStatus(id)).toBe('pending');
    // The person confirms it with an SMS code and the PIN: now the merchant is paid, once.
    const confirmed = await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/confirm`, {
      token: ivan.token,
      body: { confirm_code: await ownCode(server, ivan, { hold: held.body.hold_id }), pin: PIN },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await paymentStatus(id)).toBe('succeeded');
    expect(await accountBalance(server, account)).toBeGreaterThan(before);
    expect(await balance(server, ivan)).toBe('22000.00');
  });

  it('a 1 ₽ payment to the merchant does not make it known to the same fresh session', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(40_000) });
    expect((await pay(ivan, await bill(mule, '1.00'))).status).toBe(200);
    const large = await pay(ivan, await bill(mule, '18000.00'));
    expect(large.status, JSON.stringify(large.body)).toBe(202);
    expect(large.body.reasons).toContain('new_session');
  });

  it('knows a merchant paid before the session, and judges another merchant as new', async () => {
    const known = await person(server, { level: 'full', rub: rub(60_000) });
    const other = await approvedMerchant(server, back, compliance, { name: 'Другой магазин' });
    expect((await pay(known, await bill(mule, '9000.00'))).status).toBe(200);
    // A day on, the session is settled; a new payee's sign with it: a security change just now.
    clock.advance(25 * HOUR);
    await server.ctx.db.query('UPDATE users SET security_changed_at = $2 WHERE id = $1', [
      known.userId,
      clock.now(),
    ]);
    const again = await pay(known, await bill(mule, '15000.00'));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const fresh = await pay(known, await bill(other, '15000.00'));
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(202);
    expect(fresh.body.reasons).toEqual(['security_change']);
  });

  it('waits for the trusted person from their threshold; their approval pays the merchant', async () => {
    const anna = await settledPerson(server, 25_000);
    const olga = await trustedPair(server, anna, '1000');
    const id = await bill(mule, '5000.00');
    const waiting = await pay(anna, id);
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    expect(waiting.body.status).toBe('awaiting_approval');
    expect(await paymentStatus(id)).toBe('pending');
    expect(await balance(server, anna)).toBe('20000.00');
    const approved = await approve(olga, waiting.body.hold_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await paymentStatus(id)).toBe('succeeded');
  });

  it('a payment paid or closed while held is not paid twice: the release is refused, the money stays held', async () => {
    const anna = await settledPerson(server, 25_000);
    const olga = await trustedPair(server, anna, '1000');
    const id = await bill(mule, '5000.00');
    const waiting = await pay(anna, id);
    expect(waiting.status).toBe(202);
    expect((await mule.api('POST', `/merchant/v1/payments/${id}/cancel`)).status).toBe(200);
    const approved = await approve(olga, waiting.body.hold_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(409);
    expect(approved.body.code).toBe('MERCHANT_PAYMENT_CLOSED');
    expect(await balance(server, anna)).toBe('20000.00');
    expect(await paymentStatus(id)).toBe('canceled');
  });

  it('a payment waiting in a hold is not held again: the check before the PIN and the pay say so', async () => {
    const anna = await settledPerson(server, 25_000);
    const olga = await trustedPair(server, anna, '1000');
    const id = await bill(mule, '5000.00');
    const waiting = await pay(anna, id);
    expect(waiting.status).toBe(202);
    const check = await server.call('POST', `/v2/wallet/merchant-payments/${id}/pay/check`, {
      token: anna.token,
    });
    expect(check.body.problems.map((p: { code: string }) => p.code)).toEqual(['HOLD_WAITING']);
    const again = await pay(anna, id);
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.code).toBe('HOLD_WAITING');
    // One hold keeps the money; the trusted person's approval pays the merchant once.
    expect(await balance(server, anna)).toBe('20000.00');
    const approved = await approve(olga, waiting.body.hold_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await paymentStatus(id)).toBe('succeeded');
    expect(await balance(server, anna)).toBe('20000.00');
  });

  it('a settlement account set with the session and PIN receives nothing for a day; the owner is told', async () => {
    const shop = bakery;
    const buyer = await person(server, { level: 'full', rub: rub(5000) });
    expect((await pay(buyer, await bill(shop, '5000.00'))).status).toBe(200);
    const account = await merchantAccount(server, shop.id);
    const before = await accountBalance(server, account);
    // The thief, with the owner's session and PIN, points the settlements at a mule's account.
    const muleAccount = gostAccount('40802810000000000555');
    const changed = await server.call('PATCH', '/v2/wallet/merchant', {
      token: shop.owner.token,
      body: { bank_account: muleAccount, pin: PIN },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const now = await server.call('POST', '/v2/wallet/merchant/settlements', {
      token: shop.owner.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(now.status, JSON.stringify(now.body)).toBe(409);
    expect(now.body.code).toBe('MERCHANT_ACCOUNT_NEW');
    await runDailySettlements(server.ctx);
    const payouts = async () =>
      (
        await server.ctx.db.query<{ destination: string }>(
          'SELECT destination FROM payouts WHERE merchant_id = $1',
          [shop.id],
        )
      ).rows;
    expect(await payouts()).toEqual([]);
    expect(await accountBalance(server, account)).toBe(before);
    // The owner hears of it, and has the day to freeze the wallet ('Это не я').
    expect(await notificationKinds(server, shop.owner)).toContain('security_settlement_account_changed');
    // A day on, the account is the owner's as any other: the daily run pays it.
    clock.advance(25 * HOUR);
    await runDailySettlements(server.ctx);
    expect(await payouts()).toEqual([{ destination: muleAccount }]);
  });

  it('nothing moves through a closed owner’s merchant: closing waits for its money, then it takes none', async () => {
    const shop = cafe;
    const buyer = await person(server, { level: 'full', rub: rub(5000) });
    expect((await pay(buyer, await bill(shop, '1000.00'))).status).toBe(200);
    const pending = await bill(shop, '500.00');
    const close = async () =>
      server.call('POST', '/v2/wallet/close', {
        token: shop.owner.token,
        body: { pin: PIN, confirm_code: await ownCode(server, shop.owner, 'close_wallet') },
      });
    const refused = await close();
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe('WALLET_CLOSE_MERCHANT');
    // Paid out (the payout settled), the merchant's balance is nothing: now the wallet closes.
    const account = await merchantAccount(server, shop.id);
    const settled = await server.call('POST', '/v2/wallet/merchant/settlements', {
      token: shop.owner.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    // Its payout on the way is an operation in progress: closing still waits.
    expect((await close()).body.code).toBe('WALLET_CLOSE_PENDING');
    await runPayoutWorkerOnce(server.ctx);
    expect(await accountBalance(server, account)).toBe(0n);
    const closed = await close();
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    // A payment made before the closing cannot be paid into it, and its key no longer works.
    const late = await pay(buyer, pending);
    expect([late.status, late.body.code]).toEqual([409, 'RECIPIENT_UNAVAILABLE']);
    expect(await accountBalance(server, account)).toBe(0n);
    expect((await shop.api('GET', `/merchant/v1/payments/${pending}`)).status).toBe(401);
    expect(await balance(server, buyer)).toBe('4000.00');
  });
});
