/**
 * The operators' audit (docs/decisions.md section 12): one line per action, sign-ins included: who (the
 * operator's id and e-mail), when, what, the object, before and after. Written in the action's own
 * transaction where it has one; the table is append-only (db/functions/ops.sql refuses UPDATE, DELETE).
 */
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';

export interface AuditEntry {
  action: string;
  objectType?: string;
  objectId?: string;
  /** The person the action concerns. */
  userId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** JSON of a value, bigints as text. */
function json(value: unknown): string | null {
  if (value === undefined) return null;
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

export async function writeAudit(
  q: Queryable,
  ctx: AppContext,
  who: { id: string | null; email: string },
  entry: AuditEntry,
): Promise<void> {
  await q.query(
    `INSERT INTO ops_audit (at, operator_id, operator_email, action, object_type, object_id, user_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      ctx.clock.now(),
      who.id,
      who.email,
      entry.action,
      entry.objectType ?? null,
      entry.objectId ?? null,
      entry.userId ?? null,
      json(entry.before),
      json(entry.after),
    ],
  );
}

export async function listAudit(
  q: Queryable,
  filter: { user?: string | undefined; operator?: string | undefined; limit?: number | undefined },
): Promise<unknown[]> {
  const { rows } = await q.query(
    `SELECT id::text, at, operator_id, operator_email, action, object_type, object_id, user_id, before, after
     FROM ops_audit
     WHERE ($1::uuid IS NULL OR user_id = $1) AND ($2::uuid IS NULL OR operator_id = $2)
     ORDER BY id DESC LIMIT $3`,
    [filter.user ?? null, filter.operator ?? null, filter.limit ?? 200],
  );
  return rows;
}
