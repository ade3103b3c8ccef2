/**
 * The one four-eyes rule of every action two operators make (docs/decisions/back-office.md, 'The back office on the
 * app's stack'; docs/decisions/recovery-and-four-eyes.md): a refund, a fraud-list entry or its removal, a
 * hold's release from the amount floor, a role that approves. An operator confirms only when they are not
 * the proposer and the proposer never created nor changed their account (made them, proposed or set their
 * role, reset their TOTP, lifted their lock...). Read from the audit, which nobody can edit.
 */
import type { ErrorCode } from '@e-wallet/contract';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';

export async function mayApprove(q: Queryable, approverId: string, proposerId: string): Promise<boolean> {
  if (approverId === proposerId) return false;
  const { rows } = await q.query(
    `SELECT 1 FROM ops_audit WHERE operator_id = $1 AND object_type = 'operator' AND object_id = $2
       AND action LIKE 'operator\\_%' LIMIT 1`,
    [proposerId, approverId],
  );
  return rows.length === 0;
}

/**
 * Asked with the proposal locked: the action's own code when the approver proposed it, FOUR_EYES_RELATED
 * when the proposer made or changed the approver (`mayApprove`); null for a second pair of eyes.
 */
export async function secondOperatorRefusal(
  q: Queryable,
  approverId: string,
  proposerId: string,
  sameOperator: ErrorCode,
): Promise<AppError | null> {
  if (approverId === proposerId) return new AppError(sameOperator);
  return (await mayApprove(q, approverId, proposerId)) ? null : new AppError('FOUR_EYES_RELATED');
}
