/**
 * Stuck payouts (docs/decisions/back-office.md#the-operators-back-office): an operator settles or releases an
 * open payout through the payouts module, the decision and its audit line in one transaction; and the list of
 * them.
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { PAYOUT_STUCK_AFTER_MS, settlePayout, shownDestinationSql } from '../modules/payouts/index.ts';
import { writeAudit } from './audit.ts';
import { moneyText } from './money.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';

export { PAYOUT_STUCK_AFTER_MS };
export const REASON_RELEASED = 'Выплата не выполнена. Деньги возвращены на счёт';

/** Settles an open payout as paid (the hold posted) or released (the money returned), with a reason. */
export async function decidePayout(
  ctx: AppContext,
  by: Operator,
  id: string,
  action: 'settle' | 'release',
  reason: string,
): Promise<unknown> {
  const status = action === 'settle' ? 'succeeded' : 'failed';
  // The settlement and its audit line commit together, or neither does.
  const changed = await settlePayout(
    ctx,
    id,
    action === 'settle' ? { outcome: 'succeeded' } : { outcome: 'failed', reason: REASON_RELEASED },
    undefined,
    (q, payout) =>
      writeAudit(q, ctx, by, {
        action: `payout_${action}`,
        objectType: 'payout',
        objectId: id,
        userId: payout.user_id,
        before: { status: payout.status },
        after: { status, reason },
      }),
  );
  if (!changed) throw new AppError('PAYOUT_NOT_OPEN');
  return { id, status };
}

/** Payouts: 'stuck' (open for longer than the worker waits, the default), 'open' or 'all'; newest first. */
export async function payoutsPage(
  ctx: AppContext,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const status = query.status ?? 'stuck';
  if (!['stuck', 'open', 'all'].includes(status)) throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<{
    id: string;
    created_at: Date;
    amount: bigint;
    fee: bigint;
    currency: string;
  }>(
    `SELECT p.id, p.user_id, u.first_name, u.last_name, u.phone, p.purpose, p.amount, p.fee, p.currency,
       ${shownDestinationSql('p')} AS destination, p.destination_type, p.provider, p.provider_ref, p.status, p.failure_reason, p.created_at, p.updated_at
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
    // An СБП payout's fee (docs/decisions/sbp.md#fees) is held and settled with it: shown beside the amount.
    results: page.results.map((row) => ({
      ...row,
      amount: moneyText(row.amount, row.currency),
      fee: BigInt(row.fee) > 0n ? moneyText(row.fee, row.currency) : null,
    })),
  };
}
