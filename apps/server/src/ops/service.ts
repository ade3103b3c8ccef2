/**
 * What operators do in the back office (docs/decisions.md section 12). Each action is written to the
 * audit; money moves only through the ledger's own functions, and a rule already decided elsewhere is
 * asked of its owner (the freeze of modules/freeze, the payouts' settlement of modules/payouts, the
 * balance cap of limits.sql through ops_refund).
 */
import { randomUUID } from 'node:crypto';
import {
  type CurrencyCode,
  formatAmount,
  isCurrencyCode,
  type OperatorRole,
  parseAmount,
  roleAllows,
} from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { operatorFreeze, operatorUnfreeze } from '../modules/freeze/index.ts';
import { refreshLatest } from '../modules/identification/index.ts';
import { runMoneyCall } from '../modules/money-calls/index.ts';
import { settlePayout } from '../modules/payouts/index.ts';
import type { ProviderRecord } from '../providers/records.ts';
import { listAudit, writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

const money = (minor: bigint | string, currency: string) =>
  formatAmount(BigInt(minor), (isCurrencyCode(currency) ? currency : 'RUB') as CurrencyCode);

// ---------- people ----------

const USER_COLUMNS = `u.id, u.first_name, u.last_name, u.phone, u.email, u.identification_level AS level,
  u.frozen_at, u.frozen_by, u.created_at`;

/** People by phone (any digits of it), name or e-mail, at most 50. */
export async function searchUsers(q: Queryable, query: string): Promise<unknown[]> {
  const text = query.trim();
  const digits = text.replace(/\D/g, '');
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await q.query(
    `SELECT ${USER_COLUMNS} FROM users u
     WHERE ($1 <> '' AND length($1) >= 3 AND u.phone LIKE '%' || $1 || '%')
        OR u.email ILIKE $2 OR (u.first_name || ' ' || u.last_name) ILIKE $2
        OR (u.last_name || ' ' || u.first_name) ILIKE $2
     ORDER BY u.created_at DESC LIMIT 50`,
    [digits, like],
  );
  return rows;
}

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
      balance: money(a.balance, a.currency),
      available: money(BigInt(a.balance) - BigInt(a.pending_debits), a.currency),
      pending_in: money(a.pending_credits, a.currency),
    })),
    sessions: sessions.rows,
    operations: operations.rows.map((o) => ({ ...o, amount: money(o.amount, o.currency) })),
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

// ---------- identification ----------

/** The queue: 'pending' means waiting for an operator (the provider's in_review). */
export async function identificationQueue(
  ctx: AppContext,
  role: OperatorRole,
  status: string | undefined,
): Promise<unknown[]> {
  const review = ctx.kyc.operatorReview;
  if (!review) return [];
  const wanted = !status || status === 'pending' ? 'in_review' : status;
  if (!['in_review', 'approved', 'rejected', 'canceled', 'all'].includes(wanted))
    throw new AppError('FIELD_INVALID', { field: 'status' });
  const rows = await review.list(wanted as 'in_review');
  const ids = [...new Set(rows.map((row) => row.user_id))];
  const { rows: people } = await ctx.db.query<{
    id: string;
    first_name: string;
    last_name: string;
    phone: string;
    level: string;
  }>(
    'SELECT id, first_name, last_name, phone, identification_level AS level FROM users WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  // The full number only for those who decide.
  const full = roleAllows(role, 'identify');
  return Promise.all(
    rows.map(async (row) => ({
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
  );
}

/**
 * The photos of an application, opened, for an operator who decides identifications. Opening an
 * identity document is written to the audit like an action.
 */
export async function identificationPhotos(
  ctx: AppContext,
  by: Operator,
  id: string,
): Promise<Array<{ content_type: string; data: string }>> {
  const review = ctx.kyc.operatorReview;
  const application = review ? await review.application(id) : null;
  if (!review || !application) throw new AppError('NOT_FOUND');
  const photos = await review.photos(id);
  await writeAudit(ctx.db, ctx, by, {
    action: 'identification_photos_viewed',
    objectType: 'identification',
    objectId: id,
    userId: application.user_id,
    after: { photos: photos.length },
  });
  return photos.map((photo) => ({ content_type: photo.contentType, data: photo.data.toString('base64') }));
}

export async function decideIdentification(
  ctx: AppContext,
  by: Operator,
  id: string,
  decision: { action: 'approve' } | { action: 'reject'; reason: string },
): Promise<unknown> {
  const review = ctx.kyc.operatorReview;
  const decided = review ? await review.decide(id, decision, by.email) : null;
  if (!decided) throw new AppError('APPLICATION_NOT_IN_REVIEW');
  const levelBefore = await ctx.db.query<{ level: string }>(
    'SELECT identification_level AS level FROM users WHERE id = $1',
    [decided.user_id],
  );
  // The wallet applies the decision at once: approving raises the person to the application's level.
  await refreshLatest(ctx, decided.user_id);
  const levelAfter = await ctx.db.query<{ level: string }>(
    'SELECT identification_level AS level FROM users WHERE id = $1',
    [decided.user_id],
  );
  await writeAudit(ctx.db, ctx, by, {
    action: `identification_${decision.action}`,
    objectType: 'identification',
    objectId: id,
    userId: decided.user_id,
    before: { status: 'in_review', level: levelBefore.rows[0]?.level },
    after: {
      status: decided.status,
      level: levelAfter.rows[0]?.level,
      ...(decision.action === 'reject' ? { reason: decision.reason } : {}),
    },
  });
  return { id, status: decided.status, level: levelAfter.rows[0]?.level };
}

// ---------- refunds (four eyes) ----------

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

const REFUND_COLUMNS = `r.id, r.transfer_id, r.amount, r.currency, r.reason, r.status, r.proposed_by, p.email AS proposed_by_email,
  r.proposed_at, r.decided_by, d.email AS decided_by_email, r.decided_at, r.refund_transfer_id`;

function refundView(row: Record<string, unknown>): unknown {
  return { ...row, amount: money(row.amount as bigint, row.currency as string) };
}

export async function listRefunds(q: Queryable, status: string | undefined): Promise<unknown[]> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT ${REFUND_COLUMNS} FROM ops_refunds r JOIN operators p ON p.id = r.proposed_by
     LEFT JOIN operators d ON d.id = r.decided_by
     WHERE ($1 = 'all' OR r.status = $1) ORDER BY r.proposed_at DESC LIMIT 200`,
    [status ?? 'proposed'],
  );
  return rows.map(refundView);
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
    if (parsed.minor > left) throw new AppError('REFUND_EXCEEDS', { left: money(left, transfer.currency) });
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
        amount: money(parsed.minor, transfer.currency),
        reason: body.reason,
      },
    });
    return {
      id,
      status: 'proposed',
      amount: money(parsed.minor, transfer.currency),
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
  const movementId = randomUUID();
  const result = await runMoneyCall(ctx, {
    call: 'opsRefundApprove',
    person: by.id,
    confirmation: { operator: true },
    key: null,
    requestHash: id,
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

// ---------- stuck payouts ----------

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
  const { rows } = await ctx.db.query<{ user_id: string; status: string }>(
    'SELECT user_id, status FROM payouts WHERE id = $1',
    [id],
  );
  if (!rows[0]) throw new AppError('OPERATION_NOT_FOUND');
  const changed = await settlePayout(
    ctx,
    id,
    action === 'settle' ? { outcome: 'succeeded' } : { outcome: 'failed', reason: REASON_RELEASED },
  );
  if (!changed) throw new AppError('PAYOUT_NOT_OPEN');
  const status = action === 'settle' ? 'succeeded' : 'failed';
  await writeAudit(ctx.db, ctx, by, {
    action: `payout_${action}`,
    objectType: 'payout',
    objectId: id,
    userId: rows[0].user_id,
    before: { status: rows[0].status },
    after: { status, reason },
  });
  return { id, status };
}

// ---------- reconciliation ----------

/** A day as the wallet counts days: Moscow time (UTC+3 all year), as the monthly limits do. */
function dayBounds(date: string): { from: Date; to: Date } {
  const from = new Date(`${date}T00:00:00+03:00`);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

interface Difference {
  provider: string;
  kind: 'topups' | 'payouts';
  problem: 'missing_in_ledger' | 'missing_at_provider' | 'amount_mismatch' | 'status_mismatch';
  reference: string | null;
  provider_id: string | null;
  provider_amount: string | null;
  provider_status: string | null;
  ledger_amount: string | null;
  ledger_status: string | null;
}

interface LedgerSide {
  reference: string;
  amount: bigint;
  currency: string;
  status: string;
  created_at: Date;
}

function compare(
  provider: string,
  kind: Difference['kind'],
  day: { from: Date; to: Date },
  records: ProviderRecord[],
  ledger: Map<string, LedgerSide>,
  ledgerOfDay: LedgerSide[],
  // What the provider's outcome means in the ledger.
  expected: Record<ProviderRecord['status'], string[]>,
): Difference[] {
  const differences: Difference[] = [];
  const byReference = new Map(records.filter((r) => r.reference).map((r) => [r.reference!, r]));
  const add = (problem: Difference['problem'], record: ProviderRecord | null, side: LedgerSide | null) =>
    differences.push({
      provider,
      kind,
      problem,
      reference: record?.reference ?? side?.reference ?? null,
      provider_id: record?.providerId ?? null,
      provider_amount: record ? money(record.amount, record.currency) : null,
      provider_status: record?.status ?? null,
      ledger_amount: side ? money(side.amount, side.currency) : null,
      ledger_status: side?.status ?? null,
    });
  for (const record of records) {
    if (record.createdAt < day.from || record.createdAt >= day.to) continue;
    const side = record.reference ? ledger.get(record.reference) : undefined;
    if (!side) {
      if (record.status === 'succeeded') add('missing_in_ledger', record, null);
      continue;
    }
    if (!expected[record.status].includes(side.status))
      add(side.status === 'none' ? 'missing_in_ledger' : 'status_mismatch', record, side);
    else if (BigInt(side.amount) !== record.amount || side.currency !== record.currency)
      add('amount_mismatch', record, side);
  }
  for (const side of ledgerOfDay) {
    if (side.status === 'none' || side.status === 'voided') continue;
    if (!byReference.has(side.reference)) add('missing_at_provider', null, side);
  }
  return differences;
}

/**
 * Compares each provider's records of the day with the ledger: top-ups (the provider's payments and the
 * orders' credits) and payouts (the provider's payouts and their holds). Lists every difference.
 */
export async function reconciliation(ctx: AppContext, date: string): Promise<unknown> {
  const day = dayBounds(date);
  // A record of the day may be credited the next day, and the other way round: match over three days.
  const wide = {
    from: new Date(day.from.getTime() - 86_400_000),
    to: new Date(day.to.getTime() + 86_400_000),
  };
  const providers: unknown[] = [];
  const differences: Difference[] = [];
  /** One provider's side: its records of the three days against the ledger's rows of the same references. */
  const reconcile = async (
    provider: { id: string; records?: (from: Date, to: Date) => Promise<ProviderRecord[]> },
    kind: Difference['kind'],
    sql: (where: string) => string,
    reference: string,
    expected: Record<ProviderRecord['status'], string[]>,
  ) => {
    const records = provider.records ? await provider.records(wide.from, wide.to) : null;
    const { rows: ledger } = await ctx.db.query<LedgerSide>(sql(`${reference} = ANY($2::text[])`), [
      provider.id,
      (records ?? []).map((r) => r.reference).filter(Boolean),
    ]);
    const { rows: ofDay } = await ctx.db.query<LedgerSide>(sql('t.created_at >= $2 AND t.created_at < $3'), [
      provider.id,
      day.from,
      day.to,
    ]);
    providers.push({
      provider: provider.id,
      kind,
      listed: records !== null,
      provider_records:
        records?.filter((r) => r.createdAt >= day.from && r.createdAt < day.to).length ?? null,
      ledger_records: ofDay.length,
    });
    if (records)
      differences.push(
        ...compare(
          provider.id,
          kind,
          day,
          records,
          new Map(ledger.map((r) => [r.reference, r])),
          ofDay,
          expected,
        ),
      );
  };

  // Top-ups: an order and the transfer that credited it (none while it is not credited).
  await reconcile(
    ctx.payments,
    'topups',
    (where) =>
      `SELECT o.id::text AS reference, coalesce(t.amount, o.amount) AS amount, o.currency,
         coalesce(t.status, 'none') AS status, coalesce(t.created_at, o.created_at) AS created_at
       FROM topup_orders o LEFT JOIN ledger_transfers t ON t.id = o.transfer_id
       WHERE o.provider = $1 AND ${where}`,
    'o.id::text',
    { succeeded: ['posted'], pending: ['none'], canceled: ['none'] },
  );
  // Payouts: a payout and its hold.
  await reconcile(
    ctx.payouts,
    'payouts',
    (where) =>
      `SELECT p.id::text AS reference, t.amount, p.currency, t.status, t.created_at
       FROM payouts p JOIN ledger_transfers t ON t.id = p.hold_transfer_id
       WHERE p.provider = $1 AND ${where}`,
    'p.id::text',
    { succeeded: ['posted'], pending: ['pending'], canceled: ['voided'] },
  );
  return { date, from: day.from, to: day.to, providers, differences };
}
