/**
 * Stuck payouts (docs/decisions.md section 12): an operator settles or releases an open payout through
 * the payouts module, the decision and its audit line in one transaction. The list is in lists.ts.
 */
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { settlePayout } from '../modules/payouts/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

/** A payout still open this long after it was made needs an operator (the worker asks every minute). */
export const PAYOUT_STUCK_AFTER_MS = 30 * 60_000;
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
