/**
 * Four eyes with two people, not one (docs/decisions.md, 'The back office on the app's stack'): an
 * operator approves a refund only when they are not its proposer and the proposer never created nor
 * changed their account (made them, proposed or set their role, reset their TOTP, lifted their lock...).
 * Read from the audit, which nobody can edit.
 */
import type { Queryable } from '../db/client.ts';

export async function mayApprove(q: Queryable, approverId: string, proposerId: string): Promise<boolean> {
  if (approverId === proposerId) return false;
  const { rows } = await q.query(
    `SELECT 1 FROM ops_audit WHERE operator_id = $1 AND object_type = 'operator' AND object_id = $2
       AND action LIKE 'operator\\_%' LIMIT 1`,
    [proposerId, approverId],
  );
  return rows.length === 0;
}
