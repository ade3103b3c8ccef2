/**
 * Held operations after the antifraud check stopped them
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person):
 *   listHolds / listApprovals                 what waits for me, what I am asked to approve
 *   confirmHold(ctx, session, id, body)       the person: the PIN or a passkey, then a fresh SMS code
 *   approveHold(ctx, trustedId, id, body)     the trusted person: their own PIN or passkey
 *   cancelHold / declineHold / expireDueHolds the money returns (the ledger hold voided), once
 * A release is one transaction through the money-call pipeline: the hold row locked (so concurrent
 * confirms move money once), the people locked in user id order, the ledger hold voided, then the
 * call's own door opened again with its stored arguments: the freeze, the limits and the money are
 * decided by the door at release, and a refusal rolls everything back, leaving the money held.
 */
import {
  type AnswerOf,
  type BodyOut,
  formatAmount,
  type HoldReason,
  type Language,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, isAppError } from '../../errors.ts';
import { type MoneyCallName, voidHold } from '../../ledger/index.ts';
import { maskedName } from '../../policy/names.ts';
import type { SessionRef } from '../../sessions/tokens.ts';
import {
  doorOf,
  HOLD_COLUMNS,
  type HoldRow,
  type HoldStatus,
  holdParams,
  reasonList,
  reasonSentence,
  trustedNamed,
} from '../antifraud/index.ts';
import {
  type ClientMeta,
  lockPhone,
  message,
  sendCodeForMoney,
  sendNotice,
  verifyCode,
} from '../auth/index.ts';
import {
  type Confirmation,
  checkConfirmation,
  refusalError,
  releaseWorkOf,
  runMoneyCall,
} from '../money-calls/index.ts';
import { notify } from '../notifications/index.ts';

type HoldView = AnswerOf<'holds'>['results'][number];
type ApprovalView = AnswerOf<'approvals'>['results'][number];

const OPEN: HoldStatus[] = ['held', 'awaiting_approval'];

const TEXTS = {
  released: { ru: 'Операция подтверждена и выполнена', en: 'The operation is confirmed and done' },
  cancelled: {
    ru: 'Операция отменена, деньги возвращены',
    en: 'The operation is cancelled, the money is back',
  },
  declined: {
    ru: 'Операция отклонена, деньги возвращены',
    en: 'The operation is declined, the money is back',
  },
} as const;

/** Why a closed hold's money came back, for the person's notification. */
const CLOSED_BECAUSE = {
  cancelled: { ru: 'вы отменили её', en: 'you cancelled it' },
  declined: { ru: 'доверенное лицо отклонило её', en: 'your trusted person declined it' },
  expired: { ru: 'время на подтверждение вышло', en: 'the time to confirm ran out' },
  refused: { ru: 'служба поддержки отклонила её', en: 'our support team refused it' },
} as const;

interface ViewRow extends HoldRow {
  approver_first: string | null;
  approver_last: string | null;
  person_first: string;
  person_last: string;
  trusted_threshold: bigint | null;
}

const VIEW_SELECT = `SELECT ${HOLD_COLUMNS.replace(/(\w+)/g, 'h.$1')}, a.first_name AS approver_first,
    a.last_name AS approver_last, p.first_name AS person_first, p.last_name AS person_last,
    tp.threshold AS trusted_threshold
  FROM money_holds h JOIN users p ON p.id = h.user_id LEFT JOIN users a ON a.id = h.approver_id
  LEFT JOIN trusted_people tp ON tp.user_id = h.user_id AND tp.trusted_id = h.approver_id`;

function viewOf(row: ViewRow, language: Language): HoldView {
  const approver =
    row.approver_first !== null ? maskedName(row.approver_first, row.approver_last ?? '') : null;
  const named =
    approver !== null && row.trusted_threshold !== null
      ? trustedNamed({ name: approver, threshold: BigInt(row.trusted_threshold) }, language)
      : null;
  return {
    id: row.id,
    kind: row.kind,
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    payee: row.payee_label,
    reasons: row.reasons,
    reason: reasonSentence(row.reasons, language),
    reason_list: reasonList(row.reasons, language, named),
    // 'releasing' lives only inside the releasing transaction.
    status: row.status === 'releasing' ? 'held' : row.status,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    approver,
  };
}

const PAGE = 50;

export async function listHolds(
  ctx: AppContext,
  userId: string,
  language: Language,
): Promise<AnswerOf<'holds'>> {
  const { rows } = await ctx.db.query<ViewRow>(
    `${VIEW_SELECT} WHERE h.user_id = $1 ORDER BY h.created_at DESC, h.id DESC LIMIT ${PAGE}`,
    [userId],
  );
  return { results: rows.map((row) => viewOf(row, language)), next: null };
}

export async function listApprovals(
  ctx: AppContext,
  userId: string,
  language: Language,
): Promise<AnswerOf<'approvals'>> {
  const { rows } = await ctx.db.query<ViewRow>(
    `${VIEW_SELECT} WHERE h.approver_id = $1 ORDER BY h.created_at DESC, h.id DESC LIMIT ${PAGE}`,
    [userId],
  );
  return {
    results: rows.map((row): ApprovalView => {
      const { approver: _approver, ...view } = viewOf(row, language);
      return { ...view, person: maskedName(row.person_first, row.person_last) };
    }),
    next: null,
  };
}

async function viewById(ctx: AppContext, id: string, language: Language): Promise<HoldView> {
  const { rows } = await ctx.db.query<ViewRow>(`${VIEW_SELECT} WHERE h.id = $1`, [id]);
  return viewOf(rows[0]!, language);
}

/** A hold the caller may act on: the person's own, or one they are the approver of; else HOLD_NOT_FOUND. */
async function holdFor(
  q: Queryable,
  id: string,
  who: { person: string } | { approver: string },
  lock = false,
): Promise<HoldRow> {
  const column = 'person' in who ? 'user_id' : 'approver_id';
  const { rows } = await q.query<HoldRow>(
    `SELECT ${HOLD_COLUMNS} FROM money_holds WHERE id = $1 AND ${column} = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, 'person' in who ? who.person : who.approver],
  );
  if (!rows[0]) throw new AppError('HOLD_NOT_FOUND');
  return rows[0];
}

function answer(view: HoldView, text: { ru: string; en: string }, language: Language) {
  return { status: 'success' as const, message: text[language], hold: view };
}

/** The code that confirms a held operation, its SMS naming what it confirms. */
export async function sendHoldCode(
  ctx: AppContext,
  userId: string,
  id: string,
  client: ClientMeta,
): Promise<AnswerOf<'holdCode'>> {
  const hold = await holdFor(ctx.db, id, { person: userId });
  if (hold.status !== 'held') throw new AppError('HOLD_CLOSED');
  const { rows } = await ctx.db.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1', [userId]);
  return sendCodeForMoney(ctx, rows[0]!.phone, client, {
    // An СБП transfer is a payout to a person, said as such, not as a withdrawal 'to' them.
    kind: hold.call_name === 'sbpTransfer' ? 'sbp' : hold.kind,
    amount: hold.amount,
    currency: hold.currency,
    payee: hold.payee_label,
    hold: id,
  });
}

export async function confirmHold(
  ctx: AppContext,
  session: SessionRef,
  id: string,
  body: BodyOut<'holdConfirm'>,
  language: Language,
): Promise<AnswerOf<'holdConfirm'>> {
  const { userId } = session;
  const hold = await holdFor(ctx.db, id, { person: userId });
  if (hold.status === 'released') return answer(await viewById(ctx, id, language), TEXTS.released, language);
  if (hold.status !== 'held') throw new AppError('HOLD_CLOSED');
  // The PIN (or passkey) first, by its own guard; then the code, which a thief with the session lacks.
  const confirmation: Confirmation = body.pin !== undefined ? { pin: body.pin } : { passkey: body.passkey! };
  await checkConfirmation(ctx, userId, confirmation);
  const wrong = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1', [userId]);
    const phone = rows[0]!.phone;
    await lockPhone(q, phone);
    const wrongCode = await verifyCode(q, ctx, { phone, code: body.confirm_code, binding: { hold: id } });
    return wrongCode ? { ...wrongCode, phone } : null;
  });
  if (wrong) {
    if (wrong.justLocked) await sendNotice(ctx, wrong.phone, message('smsCodesLocked', language));
    throw new AppError(wrong.code, wrong.params ?? {});
  }
  await release(ctx, id, `person:${userId}`);
  return answer(await viewById(ctx, id, language), TEXTS.released, language);
}

export async function approveHold(
  ctx: AppContext,
  trustedId: string,
  id: string,
  body: BodyOut<'approvalApprove'>,
  language: Language,
): Promise<AnswerOf<'approvalApprove'>> {
  const hold = await holdFor(ctx.db, id, { approver: trustedId });
  if (hold.status === 'released') return answer(await viewById(ctx, id, language), TEXTS.released, language);
  if (hold.status !== 'awaiting_approval') throw new AppError('HOLD_CLOSED');
  const confirmation: Confirmation = body.pin !== undefined ? { pin: body.pin } : { passkey: body.passkey! };
  await checkConfirmation(ctx, trustedId, confirmation);
  await release(ctx, id, `trusted:${trustedId}`);
  return answer(await viewById(ctx, id, language), TEXTS.released, language);
}

/**
 * Lets a held operation's money leave through its own door, once. A hold already released answers as
 * released (a concurrent confirm lost the race); an expired one returns its money and says so.
 */
export async function release(
  ctx: AppContext,
  id: string,
  decidedBy: string,
  alongside?: (q: Queryable, row: HoldRow) => Promise<void>,
  guard?: (q: Queryable, row: HoldRow) => Promise<AppError | null>,
): Promise<void> {
  const { rows } = await ctx.db.query<HoldRow>(`SELECT ${HOLD_COLUMNS} FROM money_holds WHERE id = $1`, [id]);
  const first = rows[0];
  if (!first) throw new AppError('HOLD_NOT_FOUND');
  const now = ctx.clock.now();
  const work = releaseWorkOf(first.call_name);
  let row = first;
  let afterCommit: (() => Promise<void>) | undefined;
  try {
    await runMoneyCall(ctx, {
      call: first.call_name as MoneyCallName,
      person: first.user_id,
      confirmation: { released: true },
      key: null,
      requestHash: 'hold-release',
      before: async (q) => {
        const { rows: locked } = await q.query<HoldRow>(
          `SELECT ${HOLD_COLUMNS} FROM money_holds WHERE id = $1 FOR UPDATE`,
          [id],
        );
        row = locked[0]!;
        if (!OPEN.includes(row.status)) return { refuse: new AppError('HOLD_CLOSED') };
        if (row.expires_at <= now) return { refuse: new AppError('HOLD_EXPIRED') };
        // Who may release it (an operator's four eyes), asked with the row locked.
        const refusal = await guard?.(q, row);
        if (refusal) return { refuse: refusal };
        // The call's own row next (a request), as the call itself locks it before the people.
        const refused = await work?.before?.(q, doorOf(row.door, now));
        if (refused) throw refused;
        // The people in user id order, as the door locks them, before the hold's accounts.
        await q.query('SELECT 1 FROM users WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [
          [row.user_id, row.payee_id].filter((person) => person !== null),
        ]);
        await q.query(`UPDATE money_holds SET status = 'releasing' WHERE id = $1`, [id]);
        await voidHold(q, row.hold_transfer_id, now);
      },
      // The limits' figures in force now, as for any payment made now.
      prepare: () => ({
        door: { ...doorOf(row.door, now), rules: ctx.config.levelRulesJson },
        answer: row.answer,
      }),
      after: async (q, outcome) => {
        // A refusal at release (frozen, limits, money) rolls the void back: the money stays held.
        if (outcome.outcome === 'refused') throw refusalError(outcome.refusal);
        await q.query(
          `UPDATE money_holds SET status = 'released', decided_at = $2, decided_by = $3 WHERE id = $1`,
          [id, now, decidedBy],
        );
        afterCommit = await work?.after(q, doorOf(row.door, now), ctx);
        await notify(q, row.user_id, 'security', 'hold_released', holdParams(row), now);
        await alongside?.(q, row);
      },
      // Once, after the release committed (a payout handed to its provider): only the winner gets here.
      committed: async () => {
        await afterCommit?.();
      },
    });
  } catch (error) {
    if (isAppError(error) && error.code === 'HOLD_CLOSED') {
      const { rows: again } = await ctx.db.query<{ status: HoldStatus }>(
        'SELECT status FROM money_holds WHERE id = $1',
        [id],
      );
      if (again[0]?.status === 'released') return;
    }
    if (isAppError(error) && error.code === 'HOLD_EXPIRED') await closeHold(ctx, id, 'expired', 'expiry');
    throw error;
  }
}

/**
 * Returns a held operation's money (the ledger hold voided) and closes it as `status`, once; answers
 * the row as closed, or null when it was closed already (or is not yet due, for an expiry).
 */
async function closeHold(
  ctx: AppContext,
  id: string,
  status: 'cancelled' | 'declined' | 'expired' | 'refused',
  decidedBy: string,
  allowed: (row: HoldRow) => boolean = () => true,
  reason: string | null = null,
  alongside?: (q: Queryable, row: HoldRow) => Promise<void>,
): Promise<HoldRow | null> {
  return ctx.db.tx(async (q) => {
    const now = ctx.clock.now();
    const { rows } = await q.query<HoldRow>(
      `SELECT ${HOLD_COLUMNS} FROM money_holds WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row || !OPEN.includes(row.status) || !allowed(row)) return null;
    if (status === 'expired' && row.expires_at > now) return null;
    await voidHold(q, row.hold_transfer_id, now);
    await releaseWorkOf(row.call_name)?.closed?.(q, doorOf(row.door, now));
    await q.query(
      `UPDATE money_holds SET status = $2, decided_at = $3, decided_by = $4, decision_reason = $5 WHERE id = $1`,
      [id, status, now, decidedBy, reason],
    );
    const because = CLOSED_BECAUSE[status];
    await notify(
      q,
      row.user_id,
      'security',
      'hold_closed',
      { ...holdParams(row), reason: because.ru, reason_en: because.en },
      now,
    );
    await alongside?.(q, row);
    return row;
  });
}

export async function cancelHold(
  ctx: AppContext,
  userId: string,
  id: string,
  language: Language,
): Promise<AnswerOf<'holdCancel'>> {
  const hold = await holdFor(ctx.db, id, { person: userId });
  if (hold.status === 'cancelled')
    return answer(await viewById(ctx, id, language), TEXTS.cancelled, language);
  const closed = await closeHold(ctx, id, 'cancelled', `person:${userId}`, (row) => row.user_id === userId);
  if (!closed) throw new AppError('HOLD_CLOSED');
  return answer(await viewById(ctx, id, language), TEXTS.cancelled, language);
}

export async function declineHold(
  ctx: AppContext,
  trustedId: string,
  id: string,
  language: Language,
): Promise<AnswerOf<'approvalDecline'>> {
  const hold = await holdFor(ctx.db, id, { approver: trustedId });
  if (hold.status === 'declined') return answer(await viewById(ctx, id, language), TEXTS.declined, language);
  const closed = await closeHold(
    ctx,
    id,
    'declined',
    `trusted:${trustedId}`,
    (row) => row.status === 'awaiting_approval' && row.approver_id === trustedId,
  );
  if (!closed) throw new AppError('HOLD_CLOSED');
  return answer(await viewById(ctx, id, language), TEXTS.declined, language);
}

/**
 * An operator's refusal of a held operation (the back office, after calling the person): the money
 * returns; `alongside` writes the audit line in the same transaction. HOLD_CLOSED when decided already.
 */
export async function refuseHold(
  ctx: AppContext,
  id: string,
  operatorId: string,
  reason: string,
  alongside: (q: Queryable, row: HoldRow) => Promise<void>,
): Promise<void> {
  const closed = await closeHold(ctx, id, 'refused', `operator:${operatorId}`, () => true, reason, alongside);
  if (!closed) throw new AppError('HOLD_CLOSED');
}

/**
 * The first of two operators' release of an open hold (ops/antifraud.ts): kept with its reason, once;
 * nothing moves. Answers false when the hold is not held or a release is proposed already.
 */
export async function proposeRelease(
  ctx: AppContext,
  id: string,
  operatorId: string,
  reason: string,
  alongside: (q: Queryable, row: HoldRow) => Promise<void>,
): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<HoldRow>(
      `UPDATE money_holds SET release_proposed_by = $2, release_proposed_at = $3, release_reason = $4
       WHERE id = $1 AND status = 'held' AND release_proposed_by IS NULL RETURNING ${HOLD_COLUMNS}`,
      [id, operatorId, ctx.clock.now(), reason],
    );
    if (!rows[0]) return false;
    await alongside(q, rows[0]);
    return true;
  });
}

/** The sweep (jobs.ts): every hold past its time returns its money; answers how many. */
export async function expireDueHolds(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT id FROM money_holds WHERE status IN ('held', 'awaiting_approval') AND expires_at <= $1
     ORDER BY expires_at LIMIT 200`,
    [ctx.clock.now()],
  );
  let expired = 0;
  for (const { id } of rows) if (await closeHold(ctx, id, 'expired', 'expiry')) expired += 1;
  return expired;
}

/** The reasons' codes, kept with a hold, as the back office and the app read them. */
export type { HoldReason };
