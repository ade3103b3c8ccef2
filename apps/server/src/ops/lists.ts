/**
 * The back office's lists, each a page like the wallet's (docs/decisions.md section 19): `{results,
 * next}`, newest first by (time, id), `next` a sealed cursor (http/cursor.ts) or null on the last page.
 */
import { type OperatorRole, roleAllows } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type Cursor, decodeCursor, encodeCursor } from '../http/cursor.ts';
import { opaqueIds } from '../http/opaque-id.ts';
import { AUDIT_LINES } from './audit.ts';
import { moneyText } from './money.ts';
import { PAYOUT_STUCK_AFTER_MS } from './payouts.ts';

export interface PageQuery {
  cursor?: string | undefined;
  limit?: string | undefined;
}
export interface Page<T> {
  results: T[];
  next: string | null;
}

const DEFAULT_LIMIT = 50;

/** The page's bounds: where it starts (null: the newest) and how many rows to read (one more than shown). */
export function bounds(ctx: AppContext, query: PageQuery): { after: Cursor | null; limit: number } {
  return {
    after: query.cursor ? decodeCursor(query.cursor, opaqueIds(ctx.config)) : null,
    limit: Number(query.limit ?? DEFAULT_LIMIT),
  };
}

/** Cuts the rows read (limit + 1) to a page; `next` points past its last row when there are more. */
export function pageOf<T>(ctx: AppContext, rows: T[], limit: number, key: (row: T) => Cursor): Page<T> {
  const results = rows.slice(0, limit);
  const last = results.at(-1);
  return {
    results,
    next: rows.length > limit && last ? encodeCursor(key(last), opaqueIds(ctx.config)) : null,
  };
}

const USER_COLUMNS = `u.id, u.first_name, u.last_name, u.phone, u.email, u.identification_level AS level,
  u.frozen_at, u.frozen_by, u.created_at`;

/** People by phone (any digits of it), name or e-mail; with no query, everyone, newest first. */
export async function usersPage(
  ctx: AppContext,
  query: PageQuery & { query?: string | undefined },
): Promise<Page<unknown>> {
  const { after, limit } = bounds(ctx, query);
  const text = query.query?.trim() ?? '';
  const digits = text.replace(/\D/g, '');
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await ctx.db.query<{ id: string; created_at: Date }>(
    `SELECT ${USER_COLUMNS} FROM users u
     WHERE ($1 = '' OR ($2 <> '' AND length($2) >= 3 AND u.phone LIKE '%' || $2 || '%')
        OR u.email ILIKE $3 OR (u.first_name || ' ' || u.last_name) ILIKE $3
        OR (u.last_name || ' ' || u.first_name) ILIKE $3)
       AND ($4::timestamptz IS NULL OR (u.created_at, u.id) < ($4::timestamptz, $5::uuid))
     ORDER BY u.created_at DESC, u.id DESC LIMIT $6`,
    [text, digits, like, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  return pageOf(ctx, rows, limit, (row) => ({ createdAt: row.created_at, id: row.id }));
}

/** Refund proposals ('proposed', the default) or all of them, newest first. */
export async function refundsPage(
  ctx: AppContext,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const status = query.status ?? 'proposed';
  if (!['proposed', 'approved', 'rejected', 'all'].includes(status))
    throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<{ id: string; proposed_at: Date; amount: bigint; currency: string }>(
    `SELECT r.id, r.transfer_id, r.amount, r.currency, r.reason, r.status, r.proposed_by,
       p.email AS proposed_by_email, r.proposed_at, r.decided_by, d.email AS decided_by_email, r.decided_at,
       r.refund_transfer_id, t.kind AS transfer_kind
     FROM ops_refunds r JOIN operators p ON p.id = r.proposed_by LEFT JOIN operators d ON d.id = r.decided_by
     JOIN ledger_transfers t ON t.id = r.transfer_id
     WHERE ($1 = 'all' OR r.status = $1)
       AND ($2::timestamptz IS NULL OR (r.proposed_at, r.id) < ($2::timestamptz, $3::uuid))
     ORDER BY r.proposed_at DESC, r.id DESC LIMIT $4`,
    [status, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: row.proposed_at, id: row.id }));
  return {
    ...page,
    results: page.results.map((row) => ({ ...row, amount: moneyText(row.amount, row.currency) })),
  };
}

/** Payouts: 'stuck' (open for longer than the worker waits, the default), 'open' or 'all'; newest first. */
export async function payoutsPage(
  ctx: AppContext,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const status = query.status ?? 'stuck';
  if (!['stuck', 'open', 'all'].includes(status)) throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<{ id: string; created_at: Date; amount: bigint; currency: string }>(
    `SELECT p.id, p.user_id, u.first_name, u.last_name, u.phone, p.purpose, p.amount, p.currency, p.destination,
       p.provider, p.provider_ref, p.status, p.failure_reason, p.created_at, p.updated_at
     FROM payouts p JOIN users u ON u.id = p.user_id
     WHERE ($1 = 'all' OR (p.status IN ('created', 'pending') AND ($1 = 'open' OR p.created_at <= $2)))
       AND ($3::timestamptz IS NULL OR (p.created_at, p.id) < ($3::timestamptz, $4::uuid))
     ORDER BY p.created_at DESC, p.id DESC LIMIT $5`,
    [
      status,
      new Date(ctx.clock.now().getTime() - PAYOUT_STUCK_AFTER_MS),
      after?.createdAt ?? null,
      after?.id ?? null,
      limit + 1,
    ],
  );
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: row.created_at, id: row.id }));
  return {
    ...page,
    results: page.results.map((row) => ({ ...row, amount: moneyText(row.amount, row.currency) })),
  };
}

/**
 * The identification queue ('pending': waiting for an operator) from the manual provider, newest first.
 * The provider answers its whole list; the page is cut here by (submitted_at, id).
 */
export async function identificationsPage(
  ctx: AppContext,
  role: OperatorRole,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const review = ctx.kyc.operatorReview;
  if (!review) return { results: [], next: null };
  const wanted = !query.status || query.status === 'pending' ? 'in_review' : query.status;
  if (!['in_review', 'approved', 'rejected', 'canceled', 'all'].includes(wanted))
    throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const timeOf = (row: { submitted_at: Date | null; created_at: Date }) => row.submitted_at ?? row.created_at;
  const all = (await review.list(wanted as 'in_review'))
    .filter(
      (row) =>
        !after ||
        timeOf(row).getTime() < after.createdAt.getTime() ||
        (timeOf(row).getTime() === after.createdAt.getTime() && row.id < after.id),
    )
    .sort((a, b) => timeOf(b).getTime() - timeOf(a).getTime() || (a.id < b.id ? 1 : -1));
  const rows = all.slice(0, limit + 1);
  const ids = [...new Set(rows.map((row) => row.user_id))];
  const { rows: people } = await ctx.db.query<{ id: string }>(
    'SELECT id, first_name, last_name, phone, identification_level AS level FROM users WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  // The full number and the photos only for those who decide.
  const full = roleAllows(role, 'identify');
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: timeOf(row), id: row.id }));
  return {
    next: page.next,
    results: await Promise.all(
      page.results.map(async (row) => ({
        id: row.id,
        status: row.status === 'in_review' ? 'pending' : row.status,
        user: byId.get(row.user_id) ?? { id: row.user_id },
        target_level: row.target_level,
        document_type: row.document_type,
        document_number: full ? await review.documentNumber(row.id) : null,
        document_number_masked: row.document_number_masked,
        full_name: row.full_name,
        birth_date: row.birth_date,
        submitted_at: row.submitted_at,
        photos: full ? await review.photoCount(row.id) : null,
        reason: row.reason,
        decided_by: row.decided_by,
      })),
    ),
  };
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
