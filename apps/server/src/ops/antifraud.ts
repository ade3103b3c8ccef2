/**
 * Antifraud in the back office (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the queue of
 * held operations with the signs that fired, released or refused by support and above after calling the
 * person (audited in the decision's transaction); the local fraud list, whose entries compliance adds and
 * removes under four eyes (one operator proposes, another confirms), as refunds are approved (refunds.ts). A
 * hold awaiting a trusted person is theirs to decide (an operator only refuses it); a release from the amount
 * floor up is proposed by one operator and made by a second, compliance one
 * (docs/decisions/recovery-and-four-eyes.md).
 */
import { randomUUID } from 'node:crypto';
import { roleAllows } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { amountFloor, cardKey, fraudListChanging } from '../modules/antifraud/index.ts';
import { proposeRelease, refuseHold, release } from '../modules/holds/index.ts';
import { normalizeCardNumber } from '../providers/payouts/payouts-provider.ts';
import { writeAudit } from './audit.ts';
import { secondOperatorRefusal } from './four-eyes.ts';
import { moneyText } from './money.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';

/** Held operations: 'open' (the default: waiting for the person, their trusted person or us) or 'all'. */
export async function holdsPage(
  ctx: AppContext,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const status = query.status ?? 'open';
  if (!['open', 'all'].includes(status)) throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<{ id: string; created_at: Date; amount: bigint; currency: string }>(
    `SELECT h.id, h.user_id, u.first_name, u.last_name, u.phone, h.kind, h.amount, h.currency, h.payee_label,
       h.reasons, h.status, h.approver_id, h.created_at, h.expires_at, h.decided_at, h.decided_by,
       h.release_proposed_by, rp.email AS release_proposed_by_email, h.release_reason,
       limits_in_roubles(h.amount, h.currency) >= $5 AS needs_two
     FROM money_holds h JOIN users u ON u.id = h.user_id LEFT JOIN operators rp ON rp.id = h.release_proposed_by
     WHERE ($1 = 'all' OR h.status IN ('held', 'awaiting_approval'))
       AND ($2::timestamptz IS NULL OR (h.created_at, h.id) < ($2::timestamptz, $3::uuid))
     ORDER BY h.created_at DESC, h.id DESC LIMIT $4`,
    [status, after?.createdAt ?? null, after?.id ?? null, limit + 1, amountFloor(ctx)],
  );
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: row.created_at, id: row.id }));
  return {
    ...page,
    results: page.results.map((row) => ({ ...row, amount: moneyText(row.amount, row.currency) })),
  };
}

const AFTER_STATUS: Record<string, string> = {
  hold_release: 'released',
  hold_release_propose: 'release_proposed',
  hold_refuse: 'refused',
};

function auditHold(ctx: AppContext, by: Operator, action: string, reason: string) {
  return (q: Queryable, row: { id: string; user_id: string; status: string }) =>
    writeAudit(q, ctx, by, {
      action,
      objectType: 'hold',
      objectId: row.id,
      userId: row.user_id,
      before: { status: row.status },
      after: { status: AFTER_STATUS[action], reason },
    });
}

/**
 * An operator's release. Refused for a hold awaiting the trusted person (HOLD_AWAITS_TRUSTED_PERSON).
 * Under the amount floor one operator releases; from it the first call proposes, and a second operator
 * with the compliance role (the one four-eyes rule, four-eyes.ts) releases.
 */
export async function releaseHold(
  ctx: AppContext,
  by: Operator,
  id: string,
  reason: string,
): Promise<unknown> {
  const { rows } = await ctx.db.query<{ status: string; needs_two: boolean; proposer: string | null }>(
    `SELECT status, limits_in_roubles(amount, currency) >= $2 AS needs_two, release_proposed_by AS proposer
     FROM money_holds WHERE id = $1`,
    [id, amountFloor(ctx)],
  );
  const hold = rows[0];
  if (!hold) throw new AppError('HOLD_NOT_FOUND');
  if (hold.status === 'awaiting_approval') throw new AppError('HOLD_AWAITS_TRUSTED_PERSON');
  if (hold.needs_two && hold.proposer === null && hold.status === 'held') {
    if (await proposeRelease(ctx, id, by.id, reason, auditHold(ctx, by, 'hold_release_propose', reason)))
      return { id, status: 'release_proposed' };
  }
  // Asked again with the hold locked, in the release's own transaction: a proposal made meanwhile counts.
  const guard = async (q: Queryable, row: { id: string; status: string }) => {
    if (row.status === 'awaiting_approval') return new AppError('HOLD_AWAITS_TRUSTED_PERSON');
    if (!hold.needs_two) return null;
    const { rows: locked } = await q.query<{ proposer: string | null }>(
      'SELECT release_proposed_by AS proposer FROM money_holds WHERE id = $1',
      [row.id],
    );
    const proposer = locked[0]?.proposer;
    if (!proposer) return new AppError('HOLD_CLOSED');
    if (by.id !== proposer && !roleAllows(by.role, 'identify'))
      return new AppError('HOLD_RELEASE_COMPLIANCE');
    return secondOperatorRefusal(q, by.id, proposer, 'HOLD_RELEASE_SECOND_OPERATOR');
  };
  await release(ctx, id, `operator:${by.id}`, auditHold(ctx, by, 'hold_release', reason), guard);
  return { id, status: 'released' };
}

export async function refuseHeld(
  ctx: AppContext,
  by: Operator,
  id: string,
  reason: string,
): Promise<unknown> {
  await refuseHold(ctx, id, by.id, reason, auditHold(ctx, by, 'hold_refuse', reason));
  return { id, status: 'refused' };
}

/** What the list keeps of a recipient: a phone or an account as written, a card only as its keyed hash. */
function listedValue(ctx: AppContext, kind: 'phone' | 'card' | 'account', value: string): string {
  const digits = value.replace(/^\+/, '');
  if (kind === 'phone') {
    if (!value.startsWith('+')) throw new AppError('FIELD_INVALID', { field: 'value' });
    return value;
  }
  if (kind === 'card') {
    const card = normalizeCardNumber(digits);
    if (!card) throw new AppError('CARD_INVALID');
    return cardKey(ctx, card);
  }
  if (!/^\d{20}$/.test(digits)) throw new AppError('FIELD_INVALID', { field: 'value' });
  return digits;
}

/** What an operator reads of an entry: a card's hash is never shown, only that it is a card. */
function shownValue(row: { kind: string; value: string }): string {
  return row.kind === 'card' ? '••••' : row.value;
}

export async function fraudListPage(
  ctx: AppContext,
  query: PageQuery & { status?: string | undefined },
): Promise<Page<unknown>> {
  const status = query.status ?? 'active';
  if (!['active', 'all'].includes(status)) throw new AppError('FIELD_INVALID', { field: 'status' });
  const { after, limit } = bounds(ctx, query);
  const { rows } = await ctx.db.query<{ id: string; proposed_at: Date; kind: string; value: string }>(
    `SELECT f.id, f.kind, f.value, f.reason, f.proposed_by, p.email AS proposed_by_email, f.proposed_at,
       f.confirmed_by, c.email AS confirmed_by_email, f.confirmed_at, f.removal_proposed_by,
       r.email AS removal_proposed_by_email, f.removal_reason, f.removed_at
     FROM fraud_list f JOIN operators p ON p.id = f.proposed_by
       LEFT JOIN operators c ON c.id = f.confirmed_by LEFT JOIN operators r ON r.id = f.removal_proposed_by
     WHERE ($1 = 'all' OR f.removed_at IS NULL)
       AND ($2::timestamptz IS NULL OR (f.proposed_at, f.id) < ($2::timestamptz, $3::uuid))
     ORDER BY f.proposed_at DESC, f.id DESC LIMIT $4`,
    [status, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  const page = pageOf(ctx, rows, limit, (row) => ({ createdAt: row.proposed_at, id: row.id }));
  return { ...page, results: page.results.map((row) => ({ ...row, value: shownValue(row) })) };
}

export async function proposeFraudEntry(
  ctx: AppContext,
  by: Operator,
  body: { kind: 'phone' | 'card' | 'account'; value: string; reason: string },
): Promise<unknown> {
  const value = listedValue(ctx, body.kind, body.value);
  return ctx.db.tx(async (q) => {
    const id = randomUUID();
    const { rowCount } = await q.query(
      `INSERT INTO fraud_list (id, kind, value, reason, proposed_by, proposed_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [id, body.kind, value, body.reason, by.id, ctx.clock.now()],
    );
    if (rowCount === 0) throw new AppError('FRAUD_LIST_EXISTS');
    await writeAudit(q, ctx, by, {
      action: 'fraud_list_propose',
      objectType: 'fraud_list',
      objectId: id,
      after: { kind: body.kind, value: shownValue({ kind: body.kind, value }), reason: body.reason },
    });
    return { id, status: 'proposed' };
  });
}

export async function confirmFraudEntry(ctx: AppContext, by: Operator, id: string): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<{
      proposed_by: string;
      confirmed_at: Date | null;
      removed_at: Date | null;
    }>('SELECT proposed_by, confirmed_at, removed_at FROM fraud_list WHERE id = $1 FOR UPDATE', [id]);
    const entry = rows[0];
    if (!entry || entry.removed_at) throw new AppError('FRAUD_LIST_NOT_FOUND');
    if (entry.confirmed_at) return { id, status: 'active' };
    const refusal = await secondOperatorRefusal(q, by.id, entry.proposed_by, 'FRAUD_LIST_SECOND_OPERATOR');
    if (refusal) throw refusal;
    fraudListChanging(q);
    await q.query('UPDATE fraud_list SET confirmed_by = $2, confirmed_at = $3 WHERE id = $1', [
      id,
      by.id,
      ctx.clock.now(),
    ]);
    await writeAudit(q, ctx, by, {
      action: 'fraud_list_confirm',
      objectType: 'fraud_list',
      objectId: id,
      before: { status: 'proposed' },
      after: { status: 'active' },
    });
    return { id, status: 'active' };
  });
}

/**
 * A removal under four eyes: the first call proposes it, another operator's call removes the entry. An
 * entry never confirmed goes at once (it never listed anyone).
 */
export async function removeFraudEntry(
  ctx: AppContext,
  by: Operator,
  id: string,
  reason: string,
): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<{
      confirmed_at: Date | null;
      removal_proposed_by: string | null;
      removed_at: Date | null;
    }>('SELECT confirmed_at, removal_proposed_by, removed_at FROM fraud_list WHERE id = $1 FOR UPDATE', [id]);
    const entry = rows[0];
    if (!entry || entry.removed_at) throw new AppError('FRAUD_LIST_NOT_FOUND');
    const now = ctx.clock.now();
    const removeNow = entry.confirmed_at === null || entry.removal_proposed_by !== null;
    if (removeNow && entry.removal_proposed_by !== null) {
      const refusal = await secondOperatorRefusal(
        q,
        by.id,
        entry.removal_proposed_by,
        'FRAUD_LIST_SECOND_OPERATOR',
      );
      if (refusal) throw refusal;
    }
    fraudListChanging(q);
    if (removeNow)
      await q.query(
        `UPDATE fraud_list SET removed_by = $2, removed_at = $3,
           removal_proposed_by = coalesce(removal_proposed_by, $2), removal_reason = coalesce(removal_reason, $4)
         WHERE id = $1`,
        [id, entry.removal_proposed_by === null ? null : by.id, now, reason],
      );
    else
      await q.query('UPDATE fraud_list SET removal_proposed_by = $2, removal_reason = $3 WHERE id = $1', [
        id,
        by.id,
        reason,
      ]);
    const status = removeNow ? 'removed' : 'removal_proposed';
    await writeAudit(q, ctx, by, {
      action: removeNow ? 'fraud_list_remove' : 'fraud_list_remove_propose',
      objectType: 'fraud_list',
      objectId: id,
      after: { status, reason },
    });
    return { id, status };
  });
}
