/**
 * An СБП transfer's fee (docs/decisions/sbp.md#fees), configured as 1% and at least 10 ₽: the check answers
 * it before the PIN, the transfer holds it with the payout, a failed payout returns both once, a paid one
 * posts the fee to 'fees'; the fee is not counted under the monthly limit; a held transfer takes its fee
 * when released. Without a setting there is none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { sbpFee } from '../src/modules/sbp/fees.ts';
import { PayoutUnavailable } from '../src/providers/payouts/payouts-provider.ts';
import { SANDBOX_SBP_DECLINES, SANDBOX_SBP_PAYS } from '../src/providers/payouts/sandbox-sbp.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  balance,
  key,
  type Person,
  PIN,
  person,
  settledPerson,
  trustedPair,
  withPayoutCall,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const PAYEE = '+79161234567';

it('computes the fee: a percent rounded down, at least the minimum, none by default', () => {
  const fee = (bp: number, min: number, amount: bigint) =>
    sbpFee({ SBP_FEE_BASIS_POINTS: bp, SBP_FEE_MIN_KOPECKS: min }, amount);
  expect(fee(0, 0, rub(1000))).toBe(0n);
  expect(fee(100, 0, 12_345n)).toBe(123n);
  expect(fee(100, 1000, rub(100))).toBe(1000n);
  expect(fee(100, 1000, rub(5000))).toBe(5000n);
  expect(fee(0, 500, rub(5000))).toBe(500n);
});

describe(`СБП fees (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({
      clock,
      env: { SBP_FEE_BASIS_POINTS: '100', SBP_FEE_MIN_KOPECKS: '1000' },
    });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const send = (who: Person, body: Record<string, unknown> = {}, idempotencyKey?: string) =>
    server.call('POST', '/v2/wallet/sbp/transfer', {
      token: who.token,
      body: { phone: PAYEE, bank_id: SANDBOX_SBP_PAYS, amount: '100.00', pin: PIN, ...body },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  const check = (who: Person, body: Record<string, unknown> = {}) =>
    server.call('POST', '/v2/wallet/sbp/check', {
      token: who.token,
      body: { phone: PAYEE, bank_id: SANDBOX_SBP_PAYS, amount: '100.00', ...body },
    });
  const receiptOf = async (who: Person, id: string) =>
    (await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token: who.token })).body;
  const feesBalance = async () => {
    const { rows } = await server.ctx.db.query<{ balance: bigint }>(
      `SELECT balance FROM ledger_accounts WHERE user_id IS NULL AND purpose = 'fees' AND currency = 'RUB'`,
    );
    return BigInt(rows[0]!.balance);
  };
  const feeTransfers = async (who: Person) => {
    const { rows } = await server.ctx.db.query<{ status: string; amount: bigint }>(
      `SELECT t.status, t.amount FROM ledger_transfers t JOIN payouts p ON t.id = p.fee_transfer_id
       WHERE p.user_id = $1 ORDER BY t.created_at`,
      [who.userId],
    );
    return rows.map((row) => `${row.status}:${row.amount}`);
  };

  it('the check answers the fee, and counts it in the money needed', async () => {
    const ivan = await person(server, { rub: rub(105) });
    const small = await check(ivan);
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(small.body).toMatchObject({ fee: '10.00', ok: false });
    expect(small.body.problems.map((p: { code: string }) => p.code)).toEqual(['INSUFFICIENT_FUNDS']);
    expect((await check(ivan, { amount: '95' })).body).toMatchObject({ fee: '10.00', ok: true });
    expect((await check(ivan, { amount: '5000' })).body.fee).toBe('50.00');
    const refused = await send(ivan);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('holds the fee with the payout and posts it to the fees when the bank pays', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const before = await feesBalance();
    const sent = await send(ivan, {}, key());
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.receipt).toMatchObject({ amount: '100.00', fee: '10.00', status: 'pending' });
    expect(await balance(server, ivan)).toBe('890.00');
    expect(await feeTransfers(ivan)).toEqual(['pending:1000']);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    // One row, the fee on it (docs/decisions/sbp.md#fees).
    expect(history.body.results[0]).toMatchObject({ amount: '-100.00', fee: '10.00' });
    expect(JSON.stringify(history.body)).not.toContain('Комиссия за перевод по СБП');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await receiptOf(ivan, sent.body.receipt.id)).toMatchObject({ status: 'complete', fee: '10.00' });
    const document = await server.call('GET', `/v2/wallet/transaction/${sent.body.receipt.id}/receipt`, {
      token: ivan.token,
    });
    expect(document.body).toMatchObject({ amount: '-100.00', fee: '10.00' });
    expect(await balance(server, ivan)).toBe('890.00');
    expect(await feeTransfers(ivan)).toEqual(['posted:1000']);
    expect((await feesBalance()) - before).toBe(1000n);
    // Statistics count one operation: the fee is spent with its transfer, not an 'other' operation.
    const stat = await server.call('GET', '/v2/wallet/stat', { token: ivan.token });
    const byType = Object.fromEntries(
      (stat.body.results as { wallet_transaction_type: string; amount_out: string; count: number }[]).map(
        (row) => [row.wallet_transaction_type, [row.amount_out, row.count]],
      ),
    );
    expect(byType.withdrawal).toEqual(['110.00', 1]);
    expect(byType.other).toEqual(['0.00', 0]);
    // The fee is the wallet's, not money sent: the monthly limit counts the 100 ₽ alone.
    expect((await check(ivan, { amount: '1' })).body.limits.monthly_outgoing_used).toBe('100.00');
  });

  it('the fee is part of its transfer: one history row carrying it, one notice each way, none for the fee', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const sent = await send(ivan, { bank_id: SANDBOX_SBP_DECLINES });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const rows = async () =>
      (await server.call('GET', '/v2/wallet/transaction', { token: ivan.token })).body.results as {
        id: string;
        amount: string;
        fee?: string;
        status: string;
      }[];
    const [row, ...rest] = await rows();
    expect(rest).toHaveLength(1);
    expect(row).toMatchObject({ amount: '-100.00', fee: '10.00', status: 'pending', way: 'sbp' });
    const one = await server.call('GET', `/v2/wallet/transaction/${row!.id}`, { token: ivan.token });
    expect(one.body).toEqual(row);
    const notices = async () =>
      (await server.call('GET', '/v2/wallet/user/notification?limit=100', { token: ivan.token })).body as {
        results: { message: string; kind: string; about: { id?: string } }[];
        unread: number;
      };
    const money = (page: Awaited<ReturnType<typeof notices>>) =>
      page.results.filter((n) => n.kind === 'money_out' || n.kind === 'money_in').slice(0, -1);
    const sentNotices = await notices();
    expect(money(sentNotices).map((n) => n.about.id)).toEqual([row!.id]);
    expect(money(sentNotices)[0]!.message).toBe('Перевод по СБП: 100,00\u00a0₽, комиссия 10,00\u00a0₽');
    expect(sentNotices.unread).toBe(sentNotices.results.length);
    // Declined by the bank: the same row failed, and one notice of the money back (amount and fee).
    clock.advance(60_000);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const after = await rows();
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ id: row!.id, fee: '10.00', status: 'failed' });
    const told = await notices();
    expect(money(told).map((n) => n.about.id)).toEqual([row!.id, row!.id]);
    expect(told.results.some((n) => /Комиссия/.test(n.message))).toBe(false);
    expect(money(told)[0]!.message).toMatch(/110,00\u00a0₽ возвращены на счёт/);
    expect(told.unread).toBe(told.results.length);
    await server.call('POST', '/v2/wallet/user/notification/read', { token: ivan.token, body: {} });
    expect((await notices()).unread).toBe(0);
  });

  it('a declined payout returns the amount and the fee exactly once; a repeated key holds nothing more', async () => {
    const ivan = await person(server, { rub: rub(10_000) });
    const before = await feesBalance();
    const idempotencyKey = key();
    const sent = await send(ivan, { bank_id: SANDBOX_SBP_DECLINES, amount: '3000' }, idempotencyKey);
    expect(sent.status).toBe(200);
    const again = await send(ivan, { bank_id: SANDBOX_SBP_DECLINES, amount: '3000' }, idempotencyKey);
    expect(again.body.receipt.id).toBe(sent.body.receipt.id);
    expect(await balance(server, ivan)).toBe('6970.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    expect(await receiptOf(ivan, sent.body.receipt.id)).toMatchObject({ status: 'failed', fee: '30.00' });
    expect(await balance(server, ivan)).toBe('10000.00');
    expect(await feeTransfers(ivan)).toEqual(['voided:3000']);
    expect(await feesBalance()).toBe(before);
  });

  it('a provider that times out: amount and fee stay held, then both return once the payout is known never made', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const sent = await withPayoutCall(
      server,
      () => async () => {
        throw new PayoutUnavailable('timeout');
      },
      () => send(ivan, { amount: '40' }),
    );
    expect(sent.status).toBe(200);
    expect(await balance(server, ivan)).toBe('50.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    clock.advance(5 * 60_000 + 1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    expect(await balance(server, ivan)).toBe('100.00');
    expect(await feeTransfers(ivan)).toEqual(['voided:1000']);
  });

  it('a transfer held by the antifraud check takes its fee when its trusted person approves', async () => {
    const anna = await settledPerson(server, 50_000);
    const olga = await trustedPair(server, anna, '1000');
    const waiting = await send(anna, { amount: '5000' });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    // Only the amount waits for the approval.
    expect(await balance(server, anna)).toBe('45000.00');
    const approved = await server.call('POST', `/v2/wallet/approvals/${waiting.body.hold_id}/approve`, {
      token: olga.token,
      body: { pin: PIN },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await balance(server, anna)).toBe('44950.00');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await feeTransfers(anna)).toEqual(['posted:5000']);
    expect(await balance(server, anna)).toBe('44950.00');
  });
});
