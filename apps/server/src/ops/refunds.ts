/**
 * Refunds under four eyes (docs/decisions/back-office.md#the-operators-back-office): one operator proposes a
 * correcting transfer, another approves it as a money call (modules/money-calls) through ops_refund
 * (db/functions/ops.sql), which decides eligibility, four eyes and the limits; every step audited.
 */
import { type CurrencyCode, parseAmount } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, isAppError } from '../errors.ts';
import { newTransferId } from '../ledger/index.ts';
import { runMoneyCall } from '../modules/money-calls/index.ts';
import { writeAudit } from './audit.ts';
import { secondOperatorRefusal } from './four-eyes.ts';
import { moneyText } from './money.ts';
import type { Operator } from './operators.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';

interface TransferRow {
  id: string;
  amount: bigint;
  currency: string;
  debit_user: string | null;
  credit_user: string | null;
  refundable: boolean;
  left: bigint;
}

/** The operation and what is left of it, if ops.sql's ops_refundable says it may be refunded. */
async function refundable(q: Queryable, transferId: string): Promise<TransferRow> {
  const { rows } = await q.query<TransferRow>(
    `SELECT t.id, t.amount, t.currency, d.user_id AS debit_user, c.user_id AS credit_user,
       ops_refundable(t) AS refundable, ops_refund_left(t) AS left
     FROM ledger_transfers t
     JOIN ledger_accounts d ON d.id = t.debit_account_id JOIN ledger_accounts c ON c.id = t.credit_account_id
     WHERE t.id = $1`,
    [transferId],
  );
  const transfer = rows[0];
  if (!transfer) throw new AppError('OPERATION_NOT_FOUND');
  if (!transfer.refundable) throw new AppError('REFUND_NOT_ALLOWED');
  return transfer;
}

/** Proposes a correcting transfer of a posted operation; nothing moves until another operator approves. */
export async function proposeRefund(
  ctx: AppContext,
  by: Operator,
  body: { transfer_id: string; amount: string; reason: string },
): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const transfer = await refundable(q, body.transfer_id);
    const parsed = parseAmount(body.amount, transfer.currency as CurrencyCode);
    if (!parsed.ok) throw new AppError('FIELD_INVALID', { field: 'amount' });
    const left = BigInt(transfer.left);
    if (parsed.minor > left)
      throw new AppError('REFUND_EXCEEDS', { left: moneyText(left, transfer.currency) });
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO ops_refunds (transfer_id, amount, currency, reason, proposed_by, proposed_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [transfer.id, parsed.minor, transfer.currency, body.reason, by.id, ctx.clock.now()],
    );
    const id = rows[0]!.id;
    await writeAudit(q, ctx, by, {
      action: 'refund_propose',
      objectType: 'refund',
      objectId: id,
      userId: transfer.debit_user ?? transfer.credit_user,
      after: {
        transfer_id: transfer.id,
        amount: moneyText(parsed.minor, transfer.currency),
        reason: body.reason,
      },
    });
    return {
      id,
      status: 'proposed',
      amount: moneyText(parsed.minor, transfer.currency),
      currency: transfer.currency,
    };
  });
}

const REFUND_TEXT = { ru: 'Возврат ошибочной операции', en: 'Refund of a mistaken operation' };

/**
 * Approves a proposal by a different operator: a money call (modules/money-calls) through the refund
 * door (ops_refund in db/functions/ops.sql), which decides four eyes and moves the correcting transfer
 * once (a repeat answers the first). The approval and its audit line are one transaction; a refusal
 * is audited too.
 */
export async function approveRefund(ctx: AppContext, by: Operator, id: string): Promise<unknown> {
  const movementId = newTransferId();
  const refusedByRule = (rule: string) =>
    writeAudit(ctx.db, ctx, by, {
      action: 'refund_approve_refused',
      objectType: 'refund',
      objectId: id,
      after: { rule },
    });
  const result = await runMoneyCall(ctx, {
    call: 'opsRefundApprove',
    person: by.id,
    confirmation: { operator: true },
    key: null,
    requestHash: id,
    // The one four-eyes rule (four-eyes.ts), asked in the approval's transaction with the proposal
    // locked; the door keeps its own check of the proposer as well.
    before: async (q) => {
      const { rows } = await q.query<{ proposed_by: string; status: string }>(
        'SELECT proposed_by, status FROM ops_refunds WHERE id = $1 FOR UPDATE',
        [id],
      );
      const proposal = rows[0];
      if (proposal?.status !== 'proposed') return undefined;
      const refusal = await secondOperatorRefusal(q, by.id, proposal.proposed_by, 'FOUR_EYES_REQUIRED');
      return refusal ? { refuse: refusal } : undefined;
    },
    prepare: () => ({
      answer: { id, status: 'approved' as const, refund_transfer_id: movementId },
      door: {
        door: 'refund',
        refundId: id,
        approver: by.id,
        movementId,
        description: { debit: REFUND_TEXT, credit: REFUND_TEXT },
        at: ctx.clock.now(),
        rules: ctx.config.levelRulesJson,
      },
    }),
    after: async (q, outcome) => {
      if (outcome.outcome !== 'created') return;
      const { rows } = await q.query<{ debit_user: string | null }>(
        `SELECT d.user_id AS debit_user FROM ops_refunds r JOIN ledger_transfers t ON t.id = r.transfer_id
         JOIN ledger_accounts d ON d.id = t.debit_account_id WHERE r.id = $1`,
        [id],
      );
      await writeAudit(q, ctx, by, {
        action: 'refund_approve',
        objectType: 'refund',
        objectId: id,
        userId: rows[0]?.debit_user ?? null,
        before: { status: 'proposed' },
        after: { status: 'approved', refund_transfer_id: movementId },
      });
    },
  }).catch(async (error: unknown) => {
    // A refusal of the four-eyes rule is audited as the door's refusals are.
    if (isAppError(error) && (error.code === 'FOUR_EYES_REQUIRED' || error.code === 'FOUR_EYES_RELATED'))
      await refusedByRule(error.code === 'FOUR_EYES_REQUIRED' ? 'four_eyes' : 'four_eyes_related');
    throw error;
  });
  if (result.outcome === 'refused') {
    if (result.refusal.rule !== 'missing')
      await writeAudit(ctx.db, ctx, by, {
        action: 'refund_approve_refused',
        objectType: 'refund',
        objectId: id,
        after: result.refusal,
      });
    throw result.error;
  }
  if (result.outcome === 'skipped') throw new Error('a refund approval is never skipped');
  return result.answer;
}

export async function rejectRefund(
  ctx: AppContext,
  by: Operator,
  id: string,
  reason: string,
): Promise<unknown> {
  return ctx.db.tx(async (q) => {
    const { rowCount } = await q.query(
      `UPDATE ops_refunds SET status = 'rejected', decided_by = $2, decided_at = $3 WHERE id = $1 AND status = 'proposed'`,
      [id, by.id, ctx.clock.now()],
    );
    if (rowCount === 0) throw new AppError('REFUND_NOT_PROPOSED');
    await writeAudit(q, ctx, by, {
      action: 'refund_reject',
      objectType: 'refund',
      objectId: id,
      before: { status: 'proposed' },
      after: { status: 'rejected', reason },
    });
    return { id, status: 'rejected' };
  });
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
