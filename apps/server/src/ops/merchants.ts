/**
 * The merchants' queue (docs/decisions/merchants.md#merchants): applications newest first, and an
 * operator's approval or rejection with its reason, written with its audit line in one transaction.
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { MerchantRow } from '../modules/merchants/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, pageOf } from './pages.ts';

/** A merchant as the queue shows it: its row (without its account and secret) and its owner. */
type QueueRow = Omit<MerchantRow, 'account_id' | 'webhook_secret'> & {
  decided_by: string | null;
  decided_at: Date | null;
  phone: string;
  first_name: string;
  last_name: string;
};

export async function merchantsPage(
  ctx: AppContext,
  query: { status?: string | undefined; cursor?: string | undefined; limit?: string | undefined },
): Promise<Page<unknown>> {
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<QueueRow>(
    `SELECT m.id, m.user_id, m.status, m.kind, m.name, m.inn, m.mcc, m.site_url, m.bank_bic, m.bank_account,
       m.notification_url, m.reason, m.decided_by, m.decided_at, m.created_at, u.phone, u.first_name, u.last_name
     FROM merchants m JOIN users u ON u.id = m.user_id
     WHERE m.status = $1 AND ($2::timestamptz IS NULL OR (m.created_at, m.id) < ($2::timestamptz, $3::uuid))
     ORDER BY m.created_at DESC, m.id DESC LIMIT $4`,
    [query.status ?? 'pending', after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  return pageOf(ctx, rows, limit, (row) => ({ createdAt: row.created_at, id: row.id }));
}

export async function decideMerchant(
  ctx: AppContext,
  by: Operator,
  id: string,
  decision: { action: 'approve' } | { action: 'reject'; reason: string },
): Promise<{ id: string; status: string }> {
  const status = decision.action === 'approve' ? 'active' : 'rejected';
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ user_id: string; status: string }>(
      'SELECT user_id, status FROM merchants WHERE id = $1 FOR UPDATE',
      [id],
    );
    const merchant = rows[0];
    if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
    if (merchant.status !== 'pending') throw new AppError('MERCHANT_NOT_PENDING');
    const reason = decision.action === 'reject' ? decision.reason : null;
    await q.query(
      `UPDATE merchants SET status = $2, reason = $3, decided_by = $4, decided_at = $5, updated_at = $5
       WHERE id = $1`,
      [id, status, reason, by.email, ctx.clock.now()],
    );
    await writeAudit(q, ctx, by, {
      action: `merchant_${decision.action}`,
      objectType: 'merchant',
      objectId: id,
      userId: merchant.user_id,
      before: { status: 'pending' },
      after: { status, ...(reason ? { reason } : {}) },
    });
    return { id, status };
  });
}
