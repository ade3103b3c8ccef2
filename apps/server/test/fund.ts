/**
 * Test-only money: funds a user's account through a real ledger transfer from the currency's
 * 'adjustments' system account (never by editing balances), so every invariant of the ledger holds.
 * For the tests of other modules: `await fund(server.ctx, userId, 150_000n)` gives 1500.00 RUB.
 */

import { randomUUID } from 'node:crypto';
import type { CurrencyCode } from '@e-wallet/contract';
import type { AppContext } from '../src/context.ts';
import type { Queryable } from '../src/db/client.ts';
import { openAccount, systemAccount, type Transfer, transfer, userAccount } from '../src/ledger/index.ts';
import { recordAcceptance, TERMS_VERSION } from '../src/modules/terms/service.ts';

export async function fund(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  userId: string,
  amount: bigint,
  currency: CurrencyCode = 'RUB',
): Promise<Transfer> {
  return ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const account = (await userAccount(q, userId, currency)) ?? (await openAccount(q, userId, currency, at));
    const source = await systemAccount(q, currency, 'adjustments');
    const result = await transfer(q, {
      debit: source.id,
      credit: account.id,
      amount,
      currency,
      kind: 'topup',
      idempotencyKey: `test-fund:${randomUUID()}`,
      reference: { type: 'test_fund', id: userId },
      description: { ru: 'Тестовое пополнение', en: 'Test top-up' },
      at,
    });
    return result.transfer;
  });
}

/** The id of the user registered with a phone (API tests know the phone from `registeredUser`). */
export async function userIdOfPhone(ctx: Pick<AppContext, 'db'>, phone: string): Promise<string> {
  const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [phone]);
  if (!rows[0]) throw new Error(`no user with phone ${phone}`);
  return rows[0].id;
}

/** Funds the RUB (or given) account of the user registered with a phone. */
export async function fundPhone(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  phone: string,
  amount: bigint,
  currency: CurrencyCode = 'RUB',
): Promise<Transfer> {
  return fund(ctx, await userIdOfPhone(ctx, phone), amount, currency);
}

let userCounter = 0;
/**
 * A user row straight in the database, for ledger tests that need owners but not the sign-up flow.
 * API tests of signed-in calls should register through the auth calls instead.
 */
export async function insertUser(
  q: Queryable,
  options: { openRub?: boolean; at?: Date } = {},
): Promise<string> {
  userCounter += 1;
  const phone = `+7988${`${process.pid % 1000}${userCounter}`.padStart(7, '0').slice(-7)}`;
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO users (first_name, last_name, phone, email) VALUES ('Тест', 'Тестов', $1, $2) RETURNING id`,
    [phone, `t${userCounter}.${process.pid}@example.com`],
  );
  const id = rows[0]!.id;
  // A registered person has accepted the current terms; money calls wait for that.
  await recordAcceptance(q, id, TERMS_VERSION, options.at ?? new Date());
  if (options.openRub !== false) await openAccount(q, id, 'RUB', options.at ?? new Date());
  return id;
}

/**
 * Checks the ledger's invariants over the whole database and returns what broke (empty when sound):
 * every account's balances equal the sums of its entries and its last entry; posted balances of each
 * currency sum to zero; pending debits equal pending credits per currency; no user account is below zero;
 * every posted or voided hold has exactly one settlement per side; each entry is dated by its transfer;
 * each user account's kept monthly outgoing figure is what its entries say.
 */
export async function ledgerViolations(q: Queryable): Promise<string[]> {
  const problems: string[] = [];
  const { rows: accounts } = await q.query<{
    id: string;
    balance: bigint;
    pending_debits: bigint;
    pending_credits: bigint;
    version: bigint;
    entry_balance: bigint | null;
    entry_pending_debits: bigint | null;
    entry_pending_credits: bigint | null;
    entries: bigint;
    last_balance: bigint | null;
    last_version: bigint | null;
  }>(
    `SELECT a.id, a.balance, a.pending_debits, a.pending_credits, a.version,
       coalesce(sum(e.amount) FILTER (WHERE e.phase IN ('single', 'post')), 0)::bigint AS entry_balance,
       coalesce(sum(CASE WHEN e.amount < 0 AND e.phase = 'hold' THEN -e.amount
                         WHEN e.amount < 0 AND e.phase IN ('post', 'void') THEN e.amount ELSE 0 END), 0)::bigint
         AS entry_pending_debits,
       coalesce(sum(CASE WHEN e.amount > 0 AND e.phase = 'hold' THEN e.amount
                         WHEN e.amount > 0 AND e.phase IN ('post', 'void') THEN -e.amount ELSE 0 END), 0)::bigint
         AS entry_pending_credits,
       count(e.id)::bigint AS entries,
       (SELECT balance_after FROM ledger_entries l WHERE l.account_id = a.id ORDER BY account_version DESC LIMIT 1)
         AS last_balance,
       (SELECT max(account_version) FROM ledger_entries l WHERE l.account_id = a.id) AS last_version
     FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
     GROUP BY a.id`,
  );
  for (const a of accounts) {
    if (a.balance !== a.entry_balance)
      problems.push(`account ${a.id}: balance ${a.balance} != entries ${a.entry_balance}`);
    if (a.pending_debits !== a.entry_pending_debits)
      problems.push(
        `account ${a.id}: pending debits ${a.pending_debits} != entries ${a.entry_pending_debits}`,
      );
    if (a.pending_credits !== a.entry_pending_credits)
      problems.push(
        `account ${a.id}: pending credits ${a.pending_credits} != entries ${a.entry_pending_credits}`,
      );
    if (a.version !== a.entries)
      problems.push(`account ${a.id}: version ${a.version} != ${a.entries} entries`);
    if (a.entries > 0n && (a.last_balance !== a.balance || a.last_version !== a.version))
      problems.push(`account ${a.id}: last entry does not keep the balance after it`);
  }
  const { rows: currencies } = await q.query<{
    currency: string;
    total: bigint;
    debits: bigint;
    credits: bigint;
  }>(
    `SELECT currency, sum(balance)::bigint AS total, sum(pending_debits)::bigint AS debits,
       sum(pending_credits)::bigint AS credits FROM ledger_accounts GROUP BY currency`,
  );
  for (const c of currencies) {
    if (c.total !== 0n) problems.push(`${c.currency}: balances sum to ${c.total}`);
    if (c.debits !== c.credits)
      problems.push(`${c.currency}: pending debits ${c.debits} != credits ${c.credits}`);
  }
  const { rows: negative } = await q.query<{ id: string }>(
    'SELECT id FROM ledger_accounts WHERE user_id IS NOT NULL AND (balance < 0 OR balance - pending_debits < 0)',
  );
  for (const n of negative) problems.push(`user account ${n.id} is below zero`);
  const { rows: settlements } = await q.query<{ id: string; status: string; settles: bigint }>(
    `SELECT t.id, t.status, count(e.id) FILTER (WHERE e.phase IN ('post', 'void'))::bigint AS settles
     FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
     WHERE t.is_hold GROUP BY t.id, t.status`,
  );
  for (const s of settlements) {
    const expected = s.status === 'pending' ? 0n : 2n;
    if (s.settles !== expected)
      problems.push(`hold ${s.id} (${s.status}) has ${s.settles} settlement entries`);
  }
  const { rows: misdated } = await q.query<{ id: string }>(
    `SELECT e.id FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
     WHERE e.opened_at <> t.created_at OR (e.phase IN ('single', 'hold') AND e.created_at <> t.created_at)`,
  );
  for (const m of misdated) problems.push(`entry ${m.id} is not dated by its transfer`);
  // Each entry is on one of its
  // transfer's two accounts, in the transfer's currency and kind.
  const { rows: stray } = await q.query<{ id: string }>(
    `SELECT e.id FROM ledger_entries e LEFT JOIN ledger_transfers t ON t.id = e.transfer_id
     LEFT JOIN ledger_accounts a ON a.id = e.account_id
     WHERE t.id IS NULL OR a.id IS NULL
        OR e.account_id <> (CASE WHEN e.amount < 0 THEN t.debit_account_id ELSE t.credit_account_id END)
        OR e.currency <> t.currency OR a.currency <> t.currency OR e.kind <> t.kind
        OR e.user_id IS DISTINCT FROM a.user_id`,
  );
  for (const e of stray) problems.push(`entry ${e.id} is not on an account of its transfer`);
  // Both accounts of every transfer exist, in the transfer's currency (transfers carry no foreign keys).
  const { rows: unanchored } = await q.query<{ id: string }>(
    `SELECT t.id FROM ledger_transfers t
     LEFT JOIN ledger_accounts d ON d.id = t.debit_account_id AND d.currency = t.currency
     LEFT JOIN ledger_accounts c ON c.id = t.credit_account_id AND c.currency = t.currency
     WHERE d.id IS NULL OR c.id IS NULL`,
  );
  for (const t of unanchored) problems.push(`transfer ${t.id} is not between two accounts of its currency`);
  // The monthly limit's figure kept on the account is what its entries say.
  const { rows: counts } = await q.query<{ id: string }>(
    `WITH counted AS (
       SELECT account_id, limits_month(opened_at) AS month,
         CASE WHEN phase = 'void' THEN amount ELSE -amount END AS delta
       FROM ledger_entries
       WHERE user_id IS NOT NULL AND amount < 0 AND phase IN ('single', 'hold', 'void')
         AND limits_counts_outgoing(kind, currency)
     ), latest AS (SELECT account_id, max(month) AS month FROM counted GROUP BY account_id)
     SELECT a.id FROM ledger_accounts a LEFT JOIN latest l ON l.account_id = a.id
     WHERE a.outgoing_month IS DISTINCT FROM l.month
        OR a.outgoing_in_month <> coalesce((SELECT sum(c.delta) FROM counted c
             WHERE c.account_id = a.id AND c.month = a.outgoing_month), 0)`,
  );
  for (const c of counts) problems.push(`account ${c.id}: the month's outgoing sum differs from its entries`);
  return problems;
}
