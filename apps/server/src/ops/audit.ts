/**
 * The operators' audit (docs/decisions/back-office.md#the-operators-back-office): one line per action,
 * sign-ins included: who (the operator's id and e-mail), when, what, the object, before and after. Written in
 * the action's own transaction where it has one; the table is append-only (db/functions/ops.sql refuses
 * UPDATE, DELETE).
 */
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { opaqueIds } from '../http/opaque-id.ts';
import { DEFAULT_LIMIT, type Page, type PageQuery } from './pages.ts';

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

/**
 * Audit lines with what the back office needs to tell them as sentences: the person concerned (name,
 * phone) and the operator acted on (e-mail). `$1` person, `$2` operator, `$3` the line before which
 * to start (null: the newest), `$4` how many.
 */
export const AUDIT_LINES = `SELECT a.id::text, a.at, a.operator_id, a.operator_email, a.action, a.object_type, a.object_id,
    a.user_id, a.before, a.after, u.first_name, u.last_name, u.phone, o.email AS object_email
  FROM ops_audit a LEFT JOIN users u ON u.id = a.user_id
  LEFT JOIN operators o ON a.object_type = 'operator' AND o.id::text = a.object_id
  WHERE ($1::uuid IS NULL OR a.user_id = $1) AND ($2::uuid IS NULL OR a.operator_id = $2)
    AND ($3::bigint IS NULL OR a.id < $3)
  ORDER BY a.id DESC LIMIT $4`;

export async function listAudit(
  q: Queryable,
  filter: { user?: string | undefined; operator?: string | undefined; limit?: number | undefined },
): Promise<unknown[]> {
  const { rows } = await q.query(AUDIT_LINES, [
    filter.user ?? null,
    filter.operator ?? null,
    null,
    filter.limit ?? 200,
  ]);
  return rows;
}

/**
 * The audit, newest first, filtered by person and operator. Its lines are numbered, not named by a
 * uuid, so its cursor seals the number itself.
 */
export async function auditPage(
  ctx: AppContext,
  query: PageQuery & { user?: string | undefined; operator?: string | undefined },
): Promise<Page<unknown>> {
  const ids = opaqueIds(ctx.config);
  const limit = Number(query.limit ?? DEFAULT_LIMIT);
  let before: bigint | null = null;
  if (query.cursor) {
    const fields = ids.openCursor(query.cursor);
    const [kind, id = '', ...rest] = fields ?? [];
    if (kind !== 'audit' || rest.length > 0 || !/^\d{1,18}$/.test(id))
      throw new AppError('FIELD_INVALID', { field: 'cursor' });
    before = BigInt(id);
  }
  const { rows } = await ctx.db.query<{ id: string }>(AUDIT_LINES, [
    query.user ?? null,
    query.operator ?? null,
    before,
    limit + 1,
  ]);

  const results = rows.slice(0, limit);
  const last = results.at(-1);
  return { results, next: rows.length > limit && last ? ids.sealCursor(['audit', last.id]) : null };
}
