/**
 * People in the back office (docs/decisions/back-office.md#the-operators-back-office): the person's card, an
 * operator's freeze and its lifting (the freeze module decides it), and a person's 'Это не я' report. Every
 * action and its audit line are one transaction; and the list of people, found by phone, name or e-mail.
 */
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { operatorFreeze, operatorUnfreeze } from '../modules/freeze/index.ts';
import { listAudit, writeAudit } from './audit.ts';
import { moneyText } from './money.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';

const USER_COLUMNS = `u.id, u.first_name, u.last_name, u.phone, u.email, u.identification_level AS level,
  u.frozen_at, u.frozen_by, u.created_at`;

/** A person's card: profile, level, accounts, sessions, recent operations, reports and the audit of them. */
export async function userCard(q: Queryable, ctx: AppContext, id: string): Promise<unknown> {
  const { rows } = await q.query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  const user = rows[0];
  if (!user) throw new AppError('USER_NOT_FOUND');
  const now = ctx.clock.now();
  const [accounts, sessions, operations, reports, audit] = await Promise.all([
    q.query<{
      id: string;
      currency: string;
      balance: bigint;
      pending_debits: bigint;
      pending_credits: bigint;
    }>(
      `SELECT id, currency, balance, pending_debits, pending_credits FROM ledger_accounts
       WHERE user_id = $1 ORDER BY currency`,
      [id],
    ),
    q.query(
      `SELECT id, user_agent, ip, created_at, last_used_at FROM sessions
       WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY last_used_at DESC LIMIT 20`,
      [id, now],
    ),
    q.query<{ amount: bigint; currency: string }>(
      `SELECT e.transfer_id, e.phase, e.amount, e.currency, e.kind, e.created_at, t.status,
         t.description -> (CASE WHEN e.amount < 0 THEN 'debit' ELSE 'credit' END) ->> 'ru' AS description
       FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
       WHERE e.user_id = $1 AND e.phase IN ('single', 'hold')
       ORDER BY e.created_at DESC, e.id DESC LIMIT 30`,
      [id],
    ),
    q.query(
      `SELECT id, transfer_id, reason, status, created_at FROM operation_reports
       WHERE user_id = $1 ORDER BY created_at DESC`,
      [id],
    ),
    listAudit(q, { user: id, limit: 50 }),
  ]);
  return {
    user,
    accounts: accounts.rows.map((a) => ({
      id: a.id,
      currency: a.currency,
      balance: moneyText(a.balance, a.currency),
      available: moneyText(BigInt(a.balance) - BigInt(a.pending_debits), a.currency),
      pending_in: moneyText(a.pending_credits, a.currency),
    })),
    sessions: sessions.rows,
    operations: operations.rows.map((o) => ({ ...o, amount: moneyText(o.amount, o.currency) })),
    reports: reports.rows,
    audit,
  };
}

/** An operator's freeze or its lifting, through the freeze module, with its audit line in the same transaction. */
export async function setFrozen(
  ctx: AppContext,
  by: Operator,
  id: string,
  action: 'freeze' | 'unfreeze',
  reason: string,
): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const { before } = await (action === 'freeze' ? operatorFreeze : operatorUnfreeze)(q, ctx, id);
    const frozenBy = action === 'freeze' ? 'operator' : null;
    await writeAudit(q, ctx, by, {
      action: `user_${action}`,
      objectType: 'user',
      objectId: id,
      userId: id,
      before: { frozen_by: before },
      after: { frozen_by: frozenBy, reason },
    });
    return { status: 'success', frozen_by: frozenBy };
  });
}

/** Answers a person's 'Это не я' report: closed with what was found (the freeze is decided apart). */
export async function closeReport(
  ctx: AppContext,
  by: Operator,
  id: string,
  reason: string,
): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ user_id: string; transfer_id: string }>(
      `UPDATE operation_reports SET status = 'closed' WHERE id = $1 AND status = 'open' RETURNING user_id, transfer_id`,
      [id],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND');
    await writeAudit(q, ctx, by, {
      action: 'report_close',
      objectType: 'report',
      objectId: id,
      userId: rows[0].user_id,
      before: { status: 'open', transfer_id: rows[0].transfer_id },
      after: { status: 'closed', reason },
    });
    return { id, status: 'closed' };
  });
}

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
