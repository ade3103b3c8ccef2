import { walletClock } from '@e-wallet/contract/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, postHold, systemAccount, transfer, userAccount, voidHold } from '../src/ledger/index.ts';
import { percents } from '../src/modules/wallet/service.ts';
import { registeredUser } from './auth-helpers.ts';
import { fund, ledgerViolations } from './fund.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';

describe(`wallet accounts, history and statistics (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    const violations = await ledgerViolations(server.ctx.db);
    await server.close();
    expect(violations).toEqual([]);
  });

  async function signedIn() {
    const { token } = await registeredUser(server);
    const info = await server.call('GET', '/v2/wallet', { token });
    expect(info.status).toBe(200);
    const rub = info.body.results[0].accounts[0];
    const { rows } = await server.ctx.db.query<{ user_id: string }>(
      'SELECT user_id FROM ledger_accounts WHERE id = $1',
      [rub.id],
    );
    return { token, userId: rows[0]!.user_id, rubId: rub.id as string };
  }

  let key = 0;
  const nextKey = () => `wallet-test:${process.pid}:${++key}`;

  it('registration opens a RUB account; GET /v2/wallet and /v2/wallet/ answer it with a decimal balance', async () => {
    const { token, userId, rubId } = await signedIn();
    const first = await server.call('GET', '/v2/wallet', { token });
    expect(first.body).toEqual({
      results: [
        {
          id: userId,
          accounts: [{ id: rubId, currency_code: 'RUB', balance: '0.00', created_at: expect.any(String) }],
        },
      ],
      next: null,
    });
    await fund(server.ctx, userId, 150_000n);
    const second = await server.call('GET', '/v2/wallet/', { token });
    expect(second.status).toBe(200);
    expect(second.body.results[0].accounts[0].balance).toBe('1500.00');
    expect((await server.call('GET', '/v2/wallet')).status).toBe(401);
  });

  it('opens USD, EUR and IDR accounts once each', async () => {
    const { token } = await signedIn();
    const usd = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'USD' } });
    expect(usd.status).toBe(201);
    expect(usd.body).toMatchObject({ currency_code: 'USD', balance: '0.00' });
    const again = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'USD' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ACCOUNT_EXISTS');
    expect(isErrorShape(again.body)).toBe(true);
    const rub = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'RUB' } });
    expect(rub.body.code).toBe('ACCOUNT_EXISTS');
    const jpy = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'JPY' } });
    expect(jpy.status).toBe(400);
    for (const currency of ['IDR', 'EUR'])
      expect(
        (await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: currency } }))
          .status,
      ).toBe(201);
    const wallet = await server.call('GET', '/v2/wallet', { token });
    expect(wallet.body.results[0].accounts.map((a: any) => a.currency_code)).toEqual([
      'RUB',
      'USD',
      'EUR',
      'IDR',
    ]);
  });

  it('the wallet writes each account time as the account call does, to the millisecond, in UTC', async () => {
    // The wallet's list has PostgreSQL write the time (ledger accountsOf); the account call writes
    // the parsed Date with toISOString. Microseconds past the last millisecond are cut, never rounded.
    const { token, userId, rubId } = await signedIn();
    const usd = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'USD' } });
    const eur = await server.call('POST', '/v2/wallet/account', { token, body: { currency_code: 'EUR' } });
    const times: [string, string, string][] = [
      [rubId, '2026-12-31 23:59:59.999999+00', '2026-12-31T23:59:59.999Z'],
      [usd.body.id, '2024-02-29 00:00:00.0005+03', '2024-02-28T21:00:00.000Z'],
      [eur.body.id, '2001-09-09 01:46:40+00', '2001-09-09T01:46:40.000Z'],
    ];
    for (const [id, at] of times)
      await server.ctx.db.query('UPDATE ledger_accounts SET created_at = $2 WHERE id = $1', [id, at]);
    const wallet = await server.call('GET', '/v2/wallet', { token });
    expect(wallet.body.results[0].id).toBe(userId);
    const listed = new Map(
      wallet.body.results[0].accounts.map((a: { id: string; created_at: string }) => [a.id, a.created_at]),
    );
    for (const [id, , expected] of times) {
      expect(listed.get(id), id).toBe(expected);
      const one = await server.call('GET', `/v2/wallet/account/${id}`, { token });
      expect(one.body.created_at).toBe(expected);
    }
  });

  it("another user's account answers ACCOUNT_NOT_FOUND exactly like a missing one", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const own = await server.call('GET', `/v2/wallet/account/${alice.rubId}`, { token: alice.token });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(alice.rubId);
    const foreign = await server.call('GET', `/v2/wallet/account/${alice.rubId}`, { token: bob.token });
    const missing = await server.call('GET', '/v2/wallet/account/00000000-0000-4000-8000-000000000000', {
      token: bob.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.code).toBe('ACCOUNT_NOT_FOUND');
    for (const path of [
      `/v2/wallet/transaction?account=${alice.rubId}`,
      `/v2/wallet/stat?account=${alice.rubId}`,
    ]) {
      const answer = await server.call('GET', path, { token: bob.token });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('ACCOUNT_NOT_FOUND');
    }
  });

  it('pages through the history: every transaction exactly once, in order, both directions, with filters', async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const start = server.clock.now();
    // Several transactions share one instant, so the cursor's tie-break on id is exercised.
    for (let i = 0; i < 7; i++) {
      await fund(server.ctx, alice.userId, BigInt(1000 + i));
      if (i % 3 === 0) server.clock.advance(60_000);
    }
    const bobRub = (await userAccount(server.ctx.db, bob.userId, 'RUB'))!;
    for (let i = 0; i < 5; i++) {
      await server.ctx.db.tx((q) =>
        transfer(q, {
          debit: alice.rubId,
          credit: bobRub.id,
          amount: 100n + BigInt(i),
          currency: 'RUB',
          kind: 'transfer',
          idempotencyKey: nextKey(),
          at: server.clock.now(),
        }),
      );
      if (i % 2 === 0) server.clock.advance(1_000);
    }
    const all = async (query: string) => {
      const seen: any[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const page: any = await server.call(
          'GET',
          `/v2/wallet/transaction?${query}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
          { token: alice.token },
        );
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expect(page.body.results.length).toBeLessThanOrEqual(3);
        seen.push(...page.body.results);
        cursor = page.body.next;
        if (!cursor) break;
      }
      return seen;
    };
    const newest = await all('ordering=-created_at');
    expect(newest).toHaveLength(12);
    expect(new Set(newest.map((t) => t.id)).size).toBe(12);
    // Newest first is the reverse of the order they were written in, ties included.
    const written = [0, 1, 2, 3, 4, 5, 6]
      .map((i) => `10.0${i}`)
      .concat([0, 1, 2, 3, 4].map((i) => `-1.0${i}`));
    expect(newest.map((t) => t.amount)).toEqual(written.reverse());
    const times = newest.map((t) => t.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const oldest = await all('ordering=created_at');
    expect(oldest.map((t) => t.id)).toEqual(newest.map((t) => t.id).reverse());

    const out = newest.filter((t) => t.kind === 'transfer');
    expect(out.map((t) => t.amount).sort()).toEqual(['-1.00', '-1.01', '-1.02', '-1.03', '-1.04']);
    expect(out.every((t) => t.wallet_transaction_type === 'transfer' && t.status === 'complete')).toBe(true);
    const ins = newest.filter((t) => t.kind === 'topup');
    expect(ins.every((t) => t.wallet_transaction_type === 'topup' && t.amount.startsWith('1'))).toBe(true);
    expect(ins[0].description).toBe('Тестовое пополнение');
    expect(out[0].description).toBe('Перевод');
    const en = await server.call('GET', '/v2/wallet/transaction?limit=1', {
      token: alice.token,
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.results[0].description).toBe('Transfer sent');
    const bobSees = await server.call('GET', '/v2/wallet/transaction', { token: bob.token });
    expect(bobSees.body.results.map((t: any) => t.amount).sort()).toEqual([
      '1.00',
      '1.01',
      '1.02',
      '1.03',
      '1.04',
    ]);
    expect(bobSees.body.results[0].description).toBe('Входящий перевод');

    // Date range: only the first minute's top-ups.
    const from = start.toISOString();
    const to = new Date(start.getTime() + 59_999).toISOString();
    const ranged = await all(`date_from=${from}&date_to=${to}`);
    expect(ranged.map((t) => t.amount)).toEqual(['10.00']);
    // Days are the wallet's (Moscow) days: the start's own day there, whatever the hour in UTC.
    const today = walletClock(start).slice(0, 10);
    expect((await all(`date_from=${today}&date_to=${today}`)).length).toBeGreaterThan(0);
    expect(await all(`date_from=2000-01-01&date_to=2000-01-02`)).toEqual([]);
    // Account filter: a USD account with no transactions has an empty history.
    const usd = await server.call('POST', '/v2/wallet/account', {
      token: alice.token,
      body: { currency_code: 'USD' },
    });
    expect(await all(`account=${usd.body.id}`)).toEqual([]);
    expect(await all(`account=${alice.rubId}`)).toHaveLength(12);

    // Not a cursor, a cursor whose id has a UUID's length but not its shape, and one that names a
    // transfer instead of an entry bad input, not a 500.
    const forged = Buffer.from(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`).toString('base64url');
    const byTransfer = Buffer.from(`2026-01-01T00:00:00.000Z|${newest[0].id}`).toString('base64url');
    for (const cursor of ['bm9wZQ', forged, byTransfer]) {
      const bad = await server.call('GET', `/v2/wallet/transaction?cursor=${cursor}`, { token: alice.token });
      expect(bad.status, cursor).toBe(400);
      expect(bad.body.code).toBe('FIELD_INVALID');
    }
  });

  it('shows holds as pending, then failed when voided, with the money back', async () => {
    const alice = await signedIn();
    await fund(server.ctx, alice.userId, 10_000n);
    server.clock.advance(1_000);
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const held = await server.ctx.db.tx((q) =>
      hold(q, {
        debit: alice.rubId,
        credit: payout.id,
        amount: 4_000n,
        currency: 'RUB',
        kind: 'withdrawal',
        idempotencyKey: nextKey(),
        at: server.clock.now(),
      }),
    );
    const wallet = await server.call('GET', '/v2/wallet', { token: alice.token });
    expect(wallet.body.results[0].accounts[0].balance).toBe('60.00');
    let page = await server.call('GET', '/v2/wallet/transaction?limit=1', { token: alice.token });
    expect(page.body.results[0]).toMatchObject({
      amount: '-40.00',
      status: 'pending',
      wallet_transaction_type: 'withdrawal',
    });
    await server.ctx.db.tx((q) => voidHold(q, held.transfer.id, server.clock.now()));
    page = await server.call('GET', '/v2/wallet/transaction?limit=1', { token: alice.token });
    expect(page.body.results[0].status).toBe('failed');
    expect(
      (await server.call('GET', '/v2/wallet', { token: alice.token })).body.results[0].accounts[0].balance,
    ).toBe('100.00');
  });

  it('statistics by type sum to the total and their percents to 100', async () => {
    const alice = await signedIn();
    // Sessions expire, so the clock stays near today: this day at 10:00 UTC, then two days later.
    const day = server.clock.now().toISOString().slice(0, 10);
    server.clock.set(new Date(`${day}T10:00:00Z`));
    await fund(server.ctx, alice.userId, 100_000n);
    const ext = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const move = (credit: string, amount: bigint, kind: 'payment' | 'withdrawal' | 'fee') =>
      server.ctx.db.tx((q) =>
        transfer(q, {
          debit: alice.rubId,
          credit,
          amount,
          currency: 'RUB',
          kind,
          idempotencyKey: nextKey(),
          at: server.clock.now(),
        }),
      );
    await move(ext.id, 33_333n, 'payment');
    await move(payout.id, 11_111n, 'withdrawal');
    await move(ext.id, 1_000n, 'fee');
    const withdraw = (amount: bigint) =>
      server.ctx.db.tx((q) =>
        hold(q, {
          debit: alice.rubId,
          credit: payout.id,
          amount,
          currency: 'RUB',
          kind: 'withdrawal',
          idempotencyKey: nextKey(),
          at: server.clock.now(),
        }),
      );
    // Held money counts once its hold is posted, on the day the hold was made; pending and voided never.
    const posted = await withdraw(2_000n);
    await withdraw(3_000n);
    const voided = await withdraw(4_000n);
    await server.ctx.db.tx((q) => voidHold(q, voided.transfer.id, server.clock.now()));
    server.clock.advance(2 * 86_400_000);
    await server.ctx.db.tx((q) => postHold(q, posted.transfer.id, server.clock.now()));
    await move(ext.id, 5_000n, 'payment');

    const stat = await server.call('GET', `/v2/wallet/stat?date_from=${day}&date_to=${day}`, {
      token: alice.token,
    });
    expect(stat.status).toBe(200);
    expect(stat.body.currency_code).toBe('RUB');
    const by = Object.fromEntries(stat.body.results.map((r: any) => [r.wallet_transaction_type, r]));
    expect(by.topup.amount).toBe('1000.00');
    expect(by.payment.amount).toBe('333.33');
    // A fee is spent with its payout (docs/decisions/sbp.md#fees): in the withdrawals, not an operation.
    expect(by.withdrawal.amount).toBe('141.11');
    expect(by.withdrawal.count).toBe(2);
    expect(by.other.amount).toBe('0.00');
    expect(stat.body.total).toBe('1474.44');
    // In and out apart: 1000.00 came in; 333.33 + 131.11 + 10.00 (the fee) went out.
    expect(stat.body.total_in).toBe('1000.00');
    expect(stat.body.total_out).toBe('474.44');
    expect(by.topup).toMatchObject({ amount_in: '1000.00', amount_out: '0.00' });
    expect(by.payment).toMatchObject({ amount_in: '0.00', amount_out: '333.33' });
    expect(stat.body.results.reduce((s: number, r: any) => s + r.percent, 0)).toBe(100);
    const cents = stat.body.results.reduce((s: bigint, r: any) => s + BigInt(r.amount.replace('.', '')), 0n);
    expect(cents).toBe(147_444n);

    const byAccount = await server.call('GET', `/v2/wallet/stat?account=${alice.rubId}`, {
      token: alice.token,
    });
    expect(byAccount.body.total).toBe('1524.44');
    const usd = await server.call('GET', '/v2/wallet/stat?currency_code=USD', { token: alice.token });
    expect(usd.body).toMatchObject({ currency_code: 'USD', total: '0.00' });
    expect(usd.body.results.every((r: any) => r.percent === 0)).toBe(true);
  });

  it('transfers are their own type, in and out apart, in the history and the statistics', async () => {
    const [alice, bob] = [await signedIn(), await signedIn()];
    await fund(server.ctx, alice.userId, 100_000n);
    await fund(server.ctx, bob.userId, 50_000n);
    const send = (from: { rubId: string }, to: { rubId: string }, amount: bigint) =>
      server.ctx.db.tx((q) =>
        transfer(q, {
          debit: from.rubId,
          credit: to.rubId,
          amount,
          currency: 'RUB',
          kind: 'transfer',
          idempotencyKey: nextKey(),
          at: server.clock.now(),
        }),
      );
    await send(alice, bob, 25_000n);
    await send(bob, alice, 10_000n);

    const history = await server.call('GET', '/v2/wallet/transaction', { token: alice.token });
    const transfers = history.body.results.filter((t: any) => t.kind === 'transfer');
    expect(transfers.map((t: any) => [t.amount, t.wallet_transaction_type]).sort()).toEqual([
      ['-250.00', 'transfer'],
      ['100.00', 'transfer'],
    ]);
    const stat = await server.call('GET', '/v2/wallet/stat', { token: alice.token });
    expect(stat.status).toBe(200);
    const by = Object.fromEntries(stat.body.results.map((r: any) => [r.wallet_transaction_type, r]));
    expect(by.transfer).toMatchObject({
      amount: '350.00',
      amount_in: '100.00',
      amount_out: '250.00',
      count: 2,
    });
    expect(by.other).toMatchObject({ amount: '0.00', count: 0 });
    expect(stat.body).toMatchObject({ total: '1350.00', total_in: '1100.00', total_out: '250.00' });
    expect(stat.body.results.reduce((s: number, r: any) => s + r.percent, 0)).toBe(100);
  });

  it('largest remainder percents always sum to 100', () => {
    expect(percents([1n, 1n, 1n])).toEqual([34, 33, 33]);
    expect(percents([0n, 0n])).toEqual([0, 0]);
    expect(percents([5n, 0n, 0n, 0n])).toEqual([100, 0, 0, 0]);
    expect(percents([1n, 2n, 3n, 994n]).reduce((a, b) => a + b, 0)).toBe(100);
  });
});
