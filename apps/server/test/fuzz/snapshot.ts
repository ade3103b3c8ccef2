/**
 * What "the database is unchanged" means to the fuzzer: the row count of every table of the schema
 * (found at run time, so a new module's tables are covered without editing this file), the money
 * on user accounts (sum and sum of absolute balances, and pending holds), and the state that a
 * refused call must not move: PINs, PIN failures, revoked sessions. Abuse counters (rate_limits) are
 * left out: counting refused attempts is what they are for (a refused payment to a phone counts as a
 * lookup of it, docs/security.md).
 */
import type { Queryable } from '../../src/db/client.ts';

export type Snapshot = Record<string, string>;

export async function snapshotQuery(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'rate_limits'
     ORDER BY table_name`,
  );
  const counts = rows.map((r) => `(SELECT count(*) FROM "${r.table_name}")::text AS "rows:${r.table_name}"`);
  return `SELECT ${[
    ...counts,
    `(SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE user_id IS NOT NULL)::text AS "money:user_balances"`,
    `(SELECT coalesce(sum(abs(balance)), 0) FROM ledger_accounts)::text AS "money:abs_balances"`,
    `(SELECT coalesce(sum(pending_debits) + sum(pending_credits), 0) FROM ledger_accounts)::text AS "money:pending"`,
    `(SELECT coalesce(sum(version), 0) FROM ledger_accounts)::text AS "money:versions"`,
    `(SELECT string_agg(encode(pin_hash, 'hex'), ',' ORDER BY id) FROM users) AS "users:pins"`,
    `(SELECT count(*) FROM sessions WHERE revoked_at IS NOT NULL)::text AS "sessions:revoked"`,
    `(SELECT count(*) FROM topup_orders WHERE status <> 'pending')::text AS "orders:decided"`,
    `(SELECT count(*) FROM payouts WHERE status NOT IN ('created', 'pending'))::text AS "payouts:decided"`,
  ].join(',\n')}`;
}

export async function snapshot(db: Queryable, sql: string): Promise<Snapshot> {
  const { rows } = await db.query<Snapshot>(sql);
  return { ...rows[0]! };
}

/** The keys whose values differ, as "key: before -> after". */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).map((k) => `${k}: ${before[k]} -> ${after[k]}`);
}
