import { type CurrencyCode, formatAmount, isCurrencyCode } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { settlePayout } from '../modules/payouts/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

const money = (minor: bigint | string, currency: string) =>
  formatAmount(BigInt(minor), (isCurrencyCode(currency) ? currency : 'RUB') as CurrencyCode);

/** A payout still open this long after it was made needs an operator (the worker asks every minute). */
export const PAYOUT_STUCK_AFTER_MS = 30 * 60_000;
export const REASON_RELEASED = 'Выплата не выполнена. Деньги возвращены на счёт';

export async function listPayouts(ctx: AppContext, status: string | undefined): Promise<unknown[]> {
  const wanted = status ?? 'stuck';
  if (!['stuck', 'open', 'all'].includes(wanted)) throw new AppError('FIELD_INVALID', { field: 'status' });
  const { rows } = await ctx.db.query<{ amount: bigint; currency: string }>(
    `SELECT p.id, p.user_id, u.first_name, u.last_name, u.phone, p.purpose, p.amount, p.currency, p.destination,
       p.provider, p.provider_ref, p.status, p.failure_reason, p.created_at, p.updated_at
     FROM payouts p JOIN users u ON u.id = p.user_id
     WHERE $1 = 'all' OR (p.status IN ('created', 'pending') AND ($1 = 'open' OR p.created_at <= $2))
     ORDER BY p.created_at LIMIT 200`,
    [wanted, new Date(ctx.clock.now().getTime() - PAYOUT_STUCK_AFTER_MS)],
  );
  return rows.map((row) => ({ ...row, amount: money(row.amount, row.currency) }));
}

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
