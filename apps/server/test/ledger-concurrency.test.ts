/**
 * The ledger under concurrent requests. On PostgreSQL these run truly in parallel on a pool of
 * connections (row locks decide); on PGlite (one session) they queue, and the same answers must hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceOf,
  hold,
  LedgerError,
  postHold,
  systemAccount,
  transfer,
  userAccount,
  voidHold,
} from '../src/ledger/index.ts';
import { keyedCall, requestHash } from '../src/modules/money-calls/index.ts';
import { fund, insertUser, ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

describe(`ledger under concurrency (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { DB_POOL_SIZE: '30' } });
  });
  afterAll(async () => {
    const violations = await ledgerViolations(server.ctx.db);
    await server.close();
    expect(violations).toEqual([]);
  });

  let key = 0;
  const nextKey = () => `concurrency-test:${process.pid}:${++key}`;
  const now = () => server.clock.now();
  const newUser = async () => {
    const id = await server.ctx.db.tx((q) => insertUser(q, { at: now() }));
    return { id, rub: (await userAccount(server.ctx.db, id, 'RUB'))!.id };
  };
  const settled = <T>(promises: Promise<T>[]) => Promise.allSettled(promises);
  const reasons = (results: PromiseSettledResult<unknown>[]) =>
    results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);

  it('200 concurrent transfers out of one account never take it below zero, never lose or double money', async () => {
    const payer = await newUser();
    const payees = await Promise.all(Array.from({ length: 5 }, newUser));
    const fees = await systemAccount(server.ctx.db, 'RUB', 'fees');
    await fund(server.ctx, payer.id, 70_000n);
    // Amounts 1..400 spread over the payees and a system account: the total asked is far above the balance.
    const amounts = Array.from({ length: 200 }, (_, i) => BigInt(((i * 37) % 400) + 1) * 10n);
    const results = await settled(
      amounts.map((amount, i) =>
        server.ctx.db.tx((q) =>
          transfer(q, {
            debit: payer.rub,
            credit: i % 6 === 5 ? fees.id : payees[i % 6]!.rub,
            amount,
            currency: 'RUB',
            kind: i % 6 === 5 ? 'fee' : 'transfer',
            idempotencyKey: nextKey(),
            at: now(),
          }),
        ),
      ),
    );
    const failures = reasons(results);
    expect(
      failures.every((e) => e.code === 'INSUFFICIENT_FUNDS'),
      String(failures.find((e) => e.code !== 'INSUFFICIENT_FUNDS')),
    ).toBe(true);
    const moved = results.reduce((sum, r, i) => (r.status === 'fulfilled' ? sum + amounts[i]! : sum), 0n);
    expect(failures.length).toBeGreaterThan(0);
    const payerBalance = await balanceOf(server.ctx.db, payer.rub);
    expect(payerBalance.balance).toBe(70_000n - moved);
    expect(payerBalance.balance >= 0n).toBe(true);
    const received = (await Promise.all(payees.map((p) => balanceOf(server.ctx.db, p.rub)))).reduce(
      (sum, b) => sum + b.balance,
      0n,
    );
    const feeMoved = results.reduce(
      (sum, r, i) => (r.status === 'fulfilled' && i % 6 === 5 ? sum + amounts[i]! : sum),
      0n,
    );
    expect(received + feeMoved).toBe(moved);
    const { rows } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ledger_transfers WHERE debit_account_id = $1`,
      [payer.rub],
    );
    expect(rows[0]!.n).toBe(results.filter((r) => r.status === 'fulfilled').length);
    expect(await ledgerViolations(server.ctx.db)).toEqual([]);
  });

  it('exactly as many equal transfers succeed as the balance covers', async () => {
    const payer = await newUser();
    const payee = await newUser();
    await fund(server.ctx, payer.id, 100n * 700n);
    const results = await settled(
      Array.from({ length: 200 }, () =>
        server.ctx.db.tx((q) =>
          transfer(q, {
            debit: payer.rub,
            credit: payee.rub,
            amount: 700n,
            currency: 'RUB',
            kind: 'transfer',
            idempotencyKey: nextKey(),
            at: now(),
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(100);
    expect(reasons(results).every((e) => e.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect((await balanceOf(server.ctx.db, payer.rub)).balance).toBe(0n);
    expect((await balanceOf(server.ctx.db, payee.rub)).balance).toBe(70_000n);
  });

  it('transfers in every direction between the same accounts never deadlock and conserve money', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, newUser));
    for (const u of users) await fund(server.ctx, u.id, 5_000n);
    const results = await settled(
      Array.from({ length: 200 }, (_, i) => {
        const from = users[i % 6]!;
        const to = users[(i * 5 + 1 + Math.floor(i / 6)) % 6]!;
        if (from === to) return Promise.resolve(null);
        return server.ctx.db.tx((q) =>
          transfer(q, {
            debit: from.rub,
            credit: to.rub,
            amount: BigInt((i % 13) + 1) * 100n,
            currency: 'RUB',
            kind: 'transfer',
            idempotencyKey: nextKey(),
            at: now(),
          }),
        );
      }),
    );
    expect(reasons(results).every((e) => e.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    const balances = await Promise.all(users.map((u) => balanceOf(server.ctx.db, u.rub)));
    expect(balances.reduce((sum, b) => sum + b.balance, 0n)).toBe(30_000n);
    expect(balances.every((b) => b.balance >= 0n)).toBe(true);
  });

  it('one idempotency key sent 50 times at once moves money once', async () => {
    const payer = await newUser();
    const payee = await newUser();
    await fund(server.ctx, payer.id, 10_000n);
    const k = nextKey();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.ctx.db.tx((q) =>
          transfer(q, {
            debit: payer.rub,
            credit: payee.rub,
            amount: 1_234n,
            currency: 'RUB',
            kind: 'transfer',
            idempotencyKey: k,
            at: now(),
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1);
    expect((await balanceOf(server.ctx.db, payer.rub)).balance).toBe(10_000n - 1_234n);
  });

  it('a hold settled by racing posts and voids is settled exactly once', async () => {
    const payer = await newUser();
    await fund(server.ctx, payer.id, 10_000n);
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const results: Array<{ outcome: string; changed: number; refused: number }> = [];
    for (let round = 0; round < 5; round++) {
      const held = await server.ctx.db.tx((q) =>
        hold(q, {
          debit: payer.rub,
          credit: payout.id,
          amount: 1_000n,
          currency: 'RUB',
          kind: 'withdrawal',
          idempotencyKey: nextKey(),
          at: now(),
        }),
      );
      const attempts = await settled(
        Array.from({ length: 20 }, (_, i) =>
          server.ctx.db.tx((q) => (i % 2 ? voidHold : postHold)(q, held.transfer.id, now())),
        ),
      );
      const changed = attempts.filter((a) => a.status === 'fulfilled' && a.value.changed);
      const refused = reasons(attempts);
      expect(refused.every((e) => e instanceof LedgerError)).toBe(true);
      expect(changed).toHaveLength(1);
      const outcome = (changed[0] as PromiseFulfilledResult<{ transfer: { status: string } }>).value.transfer
        .status;
      // Every attempt of the winning kind answers without moving; every attempt of the other kind is refused.
      expect(refused).toHaveLength(10);
      results.push({ outcome, changed: changed.length, refused: refused.length });
    }
    const posted = results.filter((r) => r.outcome === 'posted').length;
    expect((await balanceOf(server.ctx.db, payer.rub)).available).toBe(10_000n - BigInt(posted) * 1_000n);
    expect((await balanceOf(server.ctx.db, payer.rub)).pendingDebits).toBe(0n);
  });

  it('keyedCall: 30 concurrent repeats of one call move money once and all get the first answer', async () => {
    const payer = await newUser();
    const payee = await newUser();
    await fund(server.ctx, payer.id, 10_000n);
    const body = { phone: '+79990000000', amount: '25.00', currency_code: 'RUB', pin: '1234' };
    const scope = {
      userId: payer.id,
      call: 'transfer' as const,
      key: nextKey(),
      requestHash: requestHash(server, body),
    };
    let runs = 0;
    // Each try makes its own answer first, as a call does; only the first's is stored and answered.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const id = `try-${i}`;
        return keyedCall(server.ctx, scope, { status: 'success', id }, async (q) => {
          runs += 1;
          await transfer(q, {
            debit: payer.rub,
            credit: payee.rub,
            amount: 2_500n,
            currency: 'RUB',
            kind: 'transfer',
            // A fresh ledger key per run: only the idempotency row can stop a second movement.
            idempotencyKey: nextKey(),
            at: now(),
          });
        });
      }),
    );
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect((await balanceOf(server.ctx.db, payer.rub)).balance).toBe(7_500n);
    expect(runs).toBe(1);
    // The same key with another request is a conflict; without a key every call runs.
    await expect(
      keyedCall(
        server.ctx,
        { ...scope, requestHash: requestHash(server, { ...body, amount: '26.00' }) },
        { status: 'success', id: 'never' },
        async () => {},
      ),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    expect(requestHash(server, { a: 1, b: 2 })).toBe(requestHash(server, { b: 2, a: 1 }));
    // A failed call stores nothing: the retry runs again.
    const failing = { ...scope, key: nextKey() };
    await expect(
      keyedCall(server.ctx, failing, { status: 'success', id: 'x' }, async (q) => {
        await transfer(q, {
          debit: payer.rub,
          credit: payee.rub,
          amount: 1_000_000n,
          currency: 'RUB',
          kind: 'transfer',
          idempotencyKey: nextKey(),
          at: now(),
        });
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const retried = await keyedCall(
      server.ctx,
      failing,
      { status: 'success', id: 'retried' },
      async () => {},
    );
    expect(retried.id).toBe('retried');
  });
});
