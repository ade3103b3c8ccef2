import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/client.ts';
import { encodeCursor } from '../src/http/cursor.ts';
import { processIds } from '../src/http/opaque-id.ts';
import {
  accountOf,
  balanceOf,
  findTransfer,
  hold,
  LedgerError,
  openAccount,
  postHold,
  sentThisMonth,
  systemAccount,
  transfer,
  transfersByReference,
  userAccount,
  voidHold,
} from '../src/ledger/index.ts';
import { listNotifications } from '../src/modules/notifications/service.ts';
import { statOf, transactionsOf } from '../src/modules/wallet/service.ts';
import { fund, insertUser, ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

describe(`ledger (${databaseLabel})`, () => {
  let server: TestServer;
  const tx = <T>(work: Parameters<TestServer['ctx']['db']['tx']>[0] & ((...a: any[]) => Promise<T>)) =>
    server.ctx.db.tx(work) as Promise<T>;
  const now = () => server.clock.now();
  let key = 0;
  const nextKey = () => `test:${process.pid}:${++key}`;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    const violations = await ledgerViolations(server.ctx.db);
    await server.close();
    expect(violations).toEqual([]);
  });

  async function rubAccount(userId: string) {
    return (await userAccount(server.ctx.db, userId, 'RUB'))!;
  }

  it('opens one account per user and currency and seeds the system accounts', async () => {
    const userId = await tx((q) => insertUser(q, { at: now() }));
    const usd = await tx((q) => openAccount(q, userId, 'USD', now()));
    expect(usd).toMatchObject({ userId, currency: 'USD', balance: 0n, available: 0n, purpose: 'user' });
    await expect(tx((q) => openAccount(q, userId, 'USD', now()))).rejects.toMatchObject({
      code: 'ACCOUNT_EXISTS',
    });
    const clearing = await systemAccount(server.ctx.db, 'RUB', 'topup_clearing');
    expect(clearing).toMatchObject({ userId: null, purpose: 'topup_clearing', currency: 'RUB' });
    // Another user's account is invisible.
    const other = await tx((q) => insertUser(q, { at: now() }));
    expect(await accountOf(server.ctx.db, other, usd.id)).toBeNull();
    expect((await accountOf(server.ctx.db, userId, usd.id))?.id).toBe(usd.id);
  });

  it('moves money between accounts with entries that keep the balance after them', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    const bob = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 10_000n);
    const a = await rubAccount(alice);
    const b = await rubAccount(bob);
    const result = await tx((q) =>
      transfer(q, {
        debit: a.id,
        credit: b.id,
        amount: 2_500n,
        currency: 'RUB',
        kind: 'transfer',
        idempotencyKey: nextKey(),
        reference: { type: 'transfer', id: 'x1' },
        at: now(),
      }),
    );
    expect(result.created).toBe(true);
    expect(result.transfer).toMatchObject({ status: 'posted', amount: 2_500n, kind: 'transfer' });
    expect((await balanceOf(server.ctx.db, a.id)).balance).toBe(7_500n);
    expect((await balanceOf(server.ctx.db, b.id)).balance).toBe(2_500n);
    const { rows } = await server.ctx.db.query<{ amount: bigint; balance_after: bigint }>(
      'SELECT amount, balance_after FROM ledger_entries WHERE transfer_id = $1 ORDER BY amount',
      [result.transfer.id],
    );
    expect(rows).toEqual([
      { amount: -2_500n, balance_after: 7_500n },
      { amount: 2_500n, balance_after: 2_500n },
    ]);
    // The answer is built from the call, and it is exactly what was written.
    expect(await transfersByReference(server.ctx.db, 'transfer', 'x1')).toEqual([result.transfer]);
    const held = await tx((q) =>
      hold(q, {
        debit: a.id,
        credit: b.id,
        amount: 500n,
        currency: 'RUB',
        kind: 'transfer',
        idempotencyKey: nextKey(),
        description: { ru: 'Удержание', en: 'Hold' },
        at: now(),
      }),
    );
    expect(held.transfer).toMatchObject({ status: 'pending', isHold: true, settledAt: null });
    expect(await findTransfer(server.ctx.db, held.transfer.id)).toEqual(held.transfer);
  });

  it('refuses to take a user account below zero and writes nothing', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 1_000n);
    const a = await rubAccount(alice);
    const sink = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const k = nextKey();
    await expect(
      tx((q) =>
        transfer(q, {
          debit: a.id,
          credit: sink.id,
          amount: 1_001n,
          currency: 'RUB',
          kind: 'payment',
          idempotencyKey: k,
          at: now(),
        }),
      ),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect((await balanceOf(server.ctx.db, a.id)).balance).toBe(1_000n);
    const { rows } = await server.ctx.db.query(
      'SELECT 1 FROM ledger_transfers WHERE id = ledger_key_id($1)',
      [k],
    );
    expect(rows).toHaveLength(0);
    // The database itself refuses a negative user balance, whatever the code does.
    await expect(
      server.ctx.db.query('UPDATE ledger_accounts SET balance = -1 WHERE id = $1', [a.id]),
    ).rejects.toSatisfy((e: any) => (e.code ?? e.cause?.code) === '23514');
    // So do the one-column rules (domains), each with nothing written.
    const refused = async (sql: string) =>
      expect(server.ctx.db.query(sql, [a.id])).rejects.toSatisfy(
        (e: any) => (e.code ?? e.cause?.code) === '23514',
        sql,
      );
    await refused('UPDATE ledger_accounts SET pending_debits = -1 WHERE id = $1');
    await refused(`UPDATE ledger_accounts SET currency = 'rub' WHERE id = $1`);
    await refused(`UPDATE ledger_accounts SET purpose = 'bank' WHERE id = $1`);
    // An account keeps its owner and currency (transfers carry no foreign keys).
    for (const change of [`currency = 'USD'`, 'user_id = NULL', 'id = gen_random_uuid()'])
      await expect(
        server.ctx.db.query(`UPDATE ledger_accounts SET ${change} WHERE id = $1`, [a.id]),
      ).rejects.toSatisfy((e: any) => (e.code ?? e.cause?.code) === 'P0001', change);
    const insert = (amount: string, kind: string, status = 'posted') =>
      `INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
         created_at, settled_at)
       VALUES (gen_random_uuid(), $1, '${sink.id}', ${amount}, 'RUB', '${kind}', '${status}', false, now(), now())`;
    await refused(insert('0', 'transfer'));
    await refused(insert('100', 'gift'));
    await refused(insert('100', 'transfer', 'sent'));
    expect((await balanceOf(server.ctx.db, a.id)).balance).toBe(1_000n);
  });

  it('a repeated idempotency key returns the first transfer and moves nothing', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 5_000n);
    const a = await rubAccount(alice);
    const sink = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const input = {
      debit: a.id,
      credit: sink.id,
      amount: 1_000n,
      currency: 'RUB' as const,
      kind: 'payment' as const,
      idempotencyKey: nextKey(),
      at: now(),
    };
    const first = await tx((q) => transfer(q, input));
    const second = await tx((q) => transfer(q, input));
    expect(second.created).toBe(false);
    expect(second.transfer.id).toBe(first.transfer.id);
    expect((await balanceOf(server.ctx.db, a.id)).balance).toBe(4_000n);
    await expect(tx((q) => transfer(q, { ...input, amount: 999n }))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
  });

  it('refuses currency mixing, equal accounts and non-positive amounts', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    const a = await rubAccount(alice);
    const usdSink = await systemAccount(server.ctx.db, 'USD', 'fees');
    const base = {
      debit: a.id,
      credit: usdSink.id,
      amount: 1n,
      currency: 'RUB' as const,
      kind: 'fee' as const,
      at: now(),
    };
    await expect(tx((q) => transfer(q, { ...base, idempotencyKey: nextKey() }))).rejects.toBeInstanceOf(
      LedgerError,
    );
    await expect(
      tx((q) => transfer(q, { ...base, credit: a.id, idempotencyKey: nextKey() })),
    ).rejects.toBeInstanceOf(LedgerError);
    await expect(
      tx((q) => transfer(q, { ...base, amount: 0n, idempotencyKey: nextKey() })),
    ).rejects.toBeInstanceOf(LedgerError);
    await expect(
      tx((q) => transfer(q, { ...base, amount: 10n ** 15n + 1n, idempotencyKey: nextKey() })),
    ).rejects.toBeInstanceOf(LedgerError);
  });

  it('a hold takes money out of the available balance; posting moves it once, voiding returns it once', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 10_000n);
    const a = await rubAccount(alice);
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const held = (amount: bigint) =>
      tx((q) =>
        hold(q, {
          debit: a.id,
          credit: payout.id,
          amount,
          currency: 'RUB',
          kind: 'withdrawal',
          idempotencyKey: nextKey(),
          at: now(),
        }),
      );
    const h1 = await held(3_000n);
    expect(h1.transfer.status).toBe('pending');
    expect(await balanceOf(server.ctx.db, a.id)).toMatchObject({ balance: 10_000n, available: 7_000n });
    await expect(held(7_001n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

    const posted = await tx((q) => postHold(q, h1.transfer.id, now()));
    expect(posted).toMatchObject({ changed: true, transfer: { status: 'posted' } });
    const again = await tx((q) => postHold(q, h1.transfer.id, now()));
    expect(again.changed).toBe(false);
    await expect(tx((q) => voidHold(q, h1.transfer.id, now()))).rejects.toBeInstanceOf(LedgerError);
    expect(await balanceOf(server.ctx.db, a.id)).toMatchObject({ balance: 7_000n, available: 7_000n });

    const h2 = await held(2_000n);
    expect((await balanceOf(server.ctx.db, a.id)).available).toBe(5_000n);
    expect((await tx((q) => voidHold(q, h2.transfer.id, now()))).changed).toBe(true);
    expect((await tx((q) => voidHold(q, h2.transfer.id, now()))).changed).toBe(false);
    await expect(tx((q) => postHold(q, h2.transfer.id, now()))).rejects.toBeInstanceOf(LedgerError);
    expect(await balanceOf(server.ctx.db, a.id)).toMatchObject({ balance: 7_000n, available: 7_000n });
  });

  it('counts monthly outgoing money (pending holds included, voided not) and the RUB balance', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 100_000n);
    const a = await rubAccount(alice);
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const ext = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const base = { debit: a.id, currency: 'RUB' as const, at: now() };
    await tx((q) =>
      transfer(q, { ...base, credit: ext.id, amount: 1_000n, kind: 'payment', idempotencyKey: nextKey() }),
    );
    await tx((q) =>
      hold(q, { ...base, credit: payout.id, amount: 2_000n, kind: 'withdrawal', idempotencyKey: nextKey() }),
    );
    const voided = await tx((q) =>
      hold(q, { ...base, credit: payout.id, amount: 4_000n, kind: 'withdrawal', idempotencyKey: nextKey() }),
    );
    await tx((q) => voidHold(q, voided.transfer.id, now()));
    await tx((q) =>
      transfer(q, { ...base, credit: ext.id, amount: 8_000n, kind: 'fee', idempotencyKey: nextKey() }),
    );
    expect(await sentThisMonth(server.ctx.db, alice, now())).toBe(3_000n);
  });

  it('keeps the month’s outgoing sum on the account across months, voids and a clock set back', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    await fund(server.ctx, alice, 100_000n);
    const a = await rubAccount(alice);
    const ext = await systemAccount(server.ctx.db, 'RUB', 'external_payments');
    const payout = await systemAccount(server.ctx.db, 'RUB', 'payout_clearing');
    const march = new Date('2026-03-31T20:59:59.999Z'); // the last moment of March, Moscow time
    const april = new Date('2026-03-31T21:00:00.000Z');
    const pay = (amount: bigint, at: Date) =>
      tx((q) =>
        transfer(q, {
          debit: a.id,
          credit: ext.id,
          currency: 'RUB',
          amount,
          kind: 'payment',
          idempotencyKey: nextKey(),
          at,
        }),
      );
    const marchHold = await tx((q) =>
      hold(q, {
        debit: a.id,
        credit: payout.id,
        currency: 'RUB',
        amount: 500n,
        kind: 'withdrawal',
        idempotencyKey: nextKey(),
        at: march,
      }),
    );
    await pay(1_000n, march);
    await pay(2_000n, april); // a new month counts from nothing
    await tx((q) => voidHold(q, marchHold.transfer.id, april)); // March's hold released: April keeps its sum
    await pay(4_000n, march); // a clock set back: March's money, not April's
    const { rows } = await server.ctx.db.query<{ outgoing_month: Date; outgoing_in_month: bigint }>(
      'SELECT outgoing_month, outgoing_in_month FROM ledger_accounts WHERE id = $1',
      [a.id],
    );
    expect(rows[0]).toEqual({ outgoing_month: april, outgoing_in_month: 2_000n });
    expect(await sentThisMonth(server.ctx.db, alice, april)).toBe(2_000n);
    // A month before the kept one is summed from the entries: 1000 + 4000, the voided hold not.
    expect(await sentThisMonth(server.ctx.db, alice, march)).toBe(5_000n);
    // afterEach's ledgerViolations compares the kept figure with the entries as well.
  });

  it('the limits’ month starts at midnight Moscow time, to the millisecond', async () => {
    const months: Array<[string, string]> = [
      ['2026-01-31T20:59:59.999Z', '2025-12-31T21:00:00.000Z'],
      ['2026-01-31T21:00:00.000Z', '2026-01-31T21:00:00.000Z'],
      ['2026-02-28T21:00:00.000Z', '2026-02-28T21:00:00.000Z'],
      ['2028-02-28T21:00:00.000Z', '2028-01-31T21:00:00.000Z'],
      ['2026-12-31T20:59:59.999Z', '2026-11-30T21:00:00.000Z'],
      ['2026-12-31T21:00:00.000Z', '2026-12-31T21:00:00.000Z'],
      ['2026-06-15T12:34:56.789Z', '2026-05-31T21:00:00.000Z'],
    ];
    for (const [at, month] of months) {
      const { rows } = await server.ctx.db.query<{ month: Date }>('SELECT limits_month($1) AS month', [
        new Date(at),
      ]);
      expect(rows[0]!.month, at).toEqual(new Date(month));
    }
  });

  it('a history page is an ordered index range: no sort, whatever the table holds', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    const account = await rubAccount(alice);
    const plans: string[] = [];
    // Runs the wallet's own history query under EXPLAIN, with scans that could hide a missing index disabled.
    await server.ctx.db.tx(async (q) => {
      await q.query('SET LOCAL enable_seqscan = off');
      await q.query('SET LOCAL enable_bitmapscan = off');
      const explaining: Queryable = {
        exec: (sql) => q.exec(sql),
        afterCommit: (callback) => q.afterCommit(callback),
        async query<T extends object>(sql: string, params?: readonly unknown[]) {
          if (!/FROM ledger_entries\b/.test(sql)) return q.query<T>(sql, params);
          const { rows } = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
          plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
          return { rows: [] as T[], rowCount: 0 };
        },
      };
      const cursor = encodeCursor({ createdAt: now(), id: processIds.entryUuid(1n) });
      await transactionsOf(
        explaining,
        alice,
        { ordering: '-created_at', cursor, date_from: '2024-01-01' },
        'ru',
      );
      await transactionsOf(explaining, alice, { ordering: 'created_at', account: account.id }, 'ru');
      // The monthly sum from the entries is the database's function (limits.sql): its own query, explained.
      const { rows: source } = await q.query<{ prosrc: string }>(
        "SELECT prosrc FROM pg_proc WHERE proname = 'limits_sent_in_month_read'",
      );
      const monthly = /RETURN \((SELECT[\s\S]*)\);\s*END/.exec(source[0]!.prosrc)![1]!;
      await explaining.query(
        monthly
          .replace(/account\.user_id/g, '$1::uuid')
          .replace(/account\.id/g, '$3::uuid')
          .replace(/\bmonth\b/g, '$2::timestamptz'),
        [alice, new Date('2026-10-31T21:00:00Z'), account.id],
      );
      await statOf(explaining, alice, { date_from: '2024-01-01', date_to: '2024-12-31' });
      await listNotifications(explaining, alice, { limit: 20, language: 'ru' });
    });
    if (process.env.SHOW_PLANS) console.info(plans.join('\n\n'));
    expect(plans).toHaveLength(6);
    // One index of a person's entries serves them all (migration 0470).
    expect(plans[0]).toContain('ledger_entries_person');
    expect(plans[1]).toContain('ledger_entries_person');
    // Limits and statistics never join the transfers, and read the index alone.
    expect(plans[2]).toContain('ledger_entries_person');
    expect(plans[3]).toMatch(/Index Only Scan using ledger_entries_person/);
    for (const plan of plans.slice(2, 4)) expect(plan).not.toContain('ledger_transfers');
    // A page of notifications reads the money ones from the same index; the unread count is
    // index-only (it includes the phase and amount it filters on).
    expect(plans[4]).toContain('ledger_entries_person');
    expect(plans[5]).toMatch(/Index Only Scan using ledger_entries_person/);
    for (const plan of plans.slice(0, 2)) {
      expect(plan).toContain('Limit');
      expect(plan).not.toMatch(/\bSort\b/);
    }
  });

  it('transfers and entries cannot be changed or deleted, accounts cannot be deleted', async () => {
    const alice = await tx((q) => insertUser(q, { at: now() }));
    const t = await fund(server.ctx, alice, 100n);
    await expect(
      server.ctx.db.query('UPDATE ledger_transfers SET amount = 1 WHERE id = $1', [t.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      server.ctx.db.query('DELETE FROM ledger_entries WHERE transfer_id = $1', [t.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      server.ctx.db.query('DELETE FROM ledger_accounts WHERE id = $1', [t.creditAccountId]),
    ).rejects.toThrow(/never deleted/);
  });
});
