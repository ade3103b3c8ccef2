/**
 * Scheduled transfers
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): a standing
 * order to send a person money every week or month, or to put it into one's own savings goal
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals), confirmed once with the PIN.
 * Each period runs at most once: its row in schedule_runs and its idempotency key
 * (`run:<schedule>:<period>`) are claimed in the transaction that pays through the ledger's door, so
 * limits and freeze apply (to a transfer); a refused run is skipped and the person told. Every run passes the
 * antifraud check as a transfer does (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): a listed
 * payee skips it, a sign holds its money until the person confirms it in the app. A goal's deposit is one's
 * own money and is not checked; a run whose goal was deleted ends its schedule.
 * The job queue (jobs.ts) only decides when; this file decides what.
 *
 *   createSchedule / listSchedules / pauseSchedule / resumeSchedule / deleteSchedule   the calls
 *   runSchedule(ctx, id, index)       one period's run (a job of the queue, from any instance)
 *   remindSchedule(ctx, id, index)    the reminder the day before, once
 */
import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_CURRENCIES,
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  errorMessage,
  formatAmount,
  formatMoney,
} from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, isAppError } from '../../errors.ts';
import { CallHeld } from '../../http/held.ts';
import { newTransferId } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { goalMove, goalRow } from '../goals/index.ts';
import { checkConfirmation, onRelease, refusalError, runMoneyCall } from '../money-calls/index.ts';
import { notify } from '../notifications/index.ts';
import { findRecipient } from '../transfer/index.ts';

export const SCHEDULES_MAX = 20;
const DAY_MS = 24 * 60 * 60_000;
/** How far ahead a first run may be set. */
const FIRST_RUN_WITHIN_MS = 366 * DAY_MS;

type Period = 'week' | 'month';
type Schedule = AnswerOf<'scheduleCreate'>['schedule'];

interface ScheduleRow {
  id: string;
  user_id: string;
  /** The person paid and the phone it was made to, or the goal deposited into: one of the two. */
  payee_id: string | null;
  phone: string | null;
  goal_id: string | null;
  amount: bigint;
  currency: CurrencyCode;
  period: Period;
  first_run_at: Date;
  ends_at: Date | null;
  next_index: number;
  next_run_at: Date | null;
  status: 'active' | 'paused' | 'ended' | 'deleted';
  created_at: Date;
  payee_first: string | null;
  payee_last: string | null;
  goal_name: string | null;
  goal_closed: boolean;
  last_at: Date | null;
  last_outcome: 'paid' | 'skipped' | 'held' | null;
  last_reason: string | null;
}

const SELECT_SCHEDULE = `SELECT s.*, u.first_name AS payee_first, u.last_name AS payee_last,
    g.name AS goal_name, g.closed_at IS NOT NULL AS goal_closed, r.run_at AS last_at, r.outcome AS last_outcome, r.reason AS last_reason
  FROM scheduled_transfers s LEFT JOIN users u ON u.id = s.payee_id LEFT JOIN savings_goals g ON g.id = s.goal_id
  LEFT JOIN LATERAL (SELECT run_at, outcome, reason FROM schedule_runs WHERE schedule_id = s.id
    ORDER BY period_index DESC LIMIT 1) r ON true`;

/**
 * The time of period `index`: weeks add 7 days; months keep the first run's day of the month, or the
 * month's last day when it is shorter (31 January, 28 February, 31 March), in UTC.
 */
export function runTime(first: Date, period: Period, index: number): Date {
  if (period === 'week') return new Date(first.getTime() + index * 7 * DAY_MS);
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth() + index;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const at = new Date(first);
  at.setUTCFullYear(year, month, Math.min(first.getUTCDate(), lastDay));
  return at;
}

/** Whom a schedule pays as its owner reads it: the payee's masked name, or the goal's name. */
function targetName(row: ScheduleRow): string {
  return row.goal_id ? row.goal_name! : maskedName(row.payee_first!, row.payee_last!);
}

function scheduleOf(row: ScheduleRow): Schedule {
  // A deleted goal's deposits have ended, though the row waits for its next run to say so.
  const status = row.status === 'deleted' || row.goal_closed ? 'ended' : row.status;
  return {
    id: row.id,
    phone: row.phone,
    goal_id: row.goal_id,
    recipient: targetName(row),
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    period: row.period,
    first_run_at: row.first_run_at.toISOString(),
    next_run_at: status === 'active' && row.next_run_at ? row.next_run_at.toISOString() : null,
    ends_at: row.ends_at?.toISOString() ?? null,
    status,
    last_run:
      row.last_at && row.last_outcome
        ? { at: row.last_at.toISOString(), outcome: row.last_outcome, reason: row.last_reason }
        : null,
    created_at: row.created_at.toISOString(),
  };
}

async function scheduleById(q: Queryable, id: string): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>(`${SELECT_SCHEDULE} WHERE s.id = $1`, [id]);
  return rows[0];
}

/** What the job queue is told after a change: the schedule's next run (and its reminder), if any. */
export interface NextRun {
  id: string;
  index: number;
  at: Date;
}

function nextRunOf(row: Pick<ScheduleRow, 'id' | 'status' | 'next_index' | 'next_run_at'>): NextRun | null {
  return row.status === 'active' && row.next_run_at
    ? { id: row.id, index: row.next_index, at: row.next_run_at }
    : null;
}

/** Where the schedules module hands its next runs to the job queue (jobs.ts sets it). */
export interface ScheduleQueue {
  enqueue(next: NextRun): Promise<void>;
}

export async function createSchedule(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'scheduleCreate'>,
  queue: ScheduleQueue,
): Promise<AnswerOf<'scheduleCreate'>> {
  const currency = body.currency_code;
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(currency))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = amountOf(body.amount, currency);
  const now = ctx.clock.now();
  const first = new Date(body.first_run_at);
  const ends = body.ends_at ? new Date(body.ends_at) : null;
  if (first <= now || first.getTime() - now.getTime() > FIRST_RUN_WITHIN_MS || (ends && ends < first))
    throw new AppError('SCHEDULE_TIME_INVALID');
  // The PIN (or a passkey) confirms the standing order; every run is then authorised by it (payments.sql).
  await checkConfirmation(ctx, userId, body);
  const target = body.goal_id
    ? await goalTarget(ctx, userId, body.goal_id, currency, now)
    : await findRecipient(ctx, userId, body.phone!).then((payee) => ({
        payee: payee.userId,
        phone: payee.phone,
        goal: null,
      }));
  const id = randomUUID();
  await ctx.db.tx(async (q) => {
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const { rows } = await q.query<{ count: bigint }>(
      `SELECT count(*) AS count FROM scheduled_transfers WHERE user_id = $1 AND status IN ('active', 'paused')`,
      [userId],
    );
    if (Number(rows[0]?.count ?? 0) >= SCHEDULES_MAX) throw new AppError('SCHEDULES_TOO_MANY');
    await q.query(
      `INSERT INTO scheduled_transfers (id, user_id, payee_id, phone, goal_id, amount, currency, period, first_run_at,
         ends_at, next_index, next_run_at, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $9, 'active', $11)`,
      [id, userId, target.payee, target.phone, target.goal, amount, currency, body.period, first, ends, now],
    );
  });
  const row = (await scheduleById(ctx.db, id))!;
  const next = nextRunOf(row);
  if (next) await queue.enqueue(next);
  return { status: 'success', schedule: scheduleOf(row) };
}

/** A regular deposit's goal: one of the person's open goals, in the schedule's currency. */
async function goalTarget(
  ctx: AppContext,
  userId: string,
  goalId: string,
  currency: CurrencyCode,
  now: Date,
): Promise<{ payee: null; phone: null; goal: string }> {
  const goal = await goalRow(ctx.db, userId, goalId, now);
  if (!goal) throw new AppError('NOT_FOUND');
  if (goal.currency !== currency) throw new AppError('SCHEDULE_GOAL_CURRENCY');
  return { payee: null, phone: null, goal: goal.id };
}

export async function listSchedules(ctx: AppContext, userId: string): Promise<AnswerOf<'scheduleList'>> {
  const { rows } = await ctx.db.query<ScheduleRow>(
    `${SELECT_SCHEDULE} WHERE s.user_id = $1 AND s.status <> 'deleted' ORDER BY s.created_at DESC, s.id DESC`,
    [userId],
  );
  return { results: rows.map(scheduleOf), next: null };
}

/**
 * Pauses, resumes or deletes one of the person's schedules. Resuming continues from the first period
 * still to come: periods that passed while paused are not run late.
 */
export async function changeSchedule(
  ctx: AppContext,
  userId: string,
  id: string,
  change: 'pause' | 'resume' | 'delete',
  queue: ScheduleQueue,
): Promise<Schedule> {
  const now = ctx.clock.now();
  const changed = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<ScheduleRow>(
      'SELECT * FROM scheduled_transfers WHERE id = $1 AND user_id = $2 AND status <> $3 FOR UPDATE',
      [id, userId, 'deleted'],
    );
    const row = rows[0];
    if (!row) throw new AppError('SCHEDULE_NOT_FOUND');
    if (change === 'delete') {
      await q.query(`UPDATE scheduled_transfers SET status = 'deleted', next_run_at = NULL WHERE id = $1`, [
        id,
      ]);
      return null;
    }
    if (change === 'pause') {
      if (row.status === 'active')
        await q.query(`UPDATE scheduled_transfers SET status = 'paused' WHERE id = $1`, [id]);
      return null;
    }
    if (row.status !== 'paused') return null;
    let index = row.next_index;
    while (runTime(row.first_run_at, row.period, index) <= now) index++;
    const at = runTime(row.first_run_at, row.period, index);
    const ended = row.ends_at !== null && at > row.ends_at;
    await q.query(
      'UPDATE scheduled_transfers SET status = $2, next_index = $3, next_run_at = $4 WHERE id = $1',
      [id, ended ? 'ended' : 'active', index, ended ? null : at],
    );
    return ended ? null : { id, index, at };
  });
  if (changed) await queue.enqueue(changed);
  const row = await scheduleById(ctx.db, id);
  return scheduleOf(row!);
}

export type RunOutcome = 'paid' | 'skipped' | 'held' | 'ended' | 'stale';

/**
 * Runs period `index` of a schedule, once: a job that is stale (the schedule paused, deleted or past
 * this period) or a period already run (another instance, a job run again) does nothing. A goal's
 * deposit whose goal was deleted ends its schedule. Answers what happened and the next run to enqueue.
 */
export async function runSchedule(
  ctx: AppContext,
  id: string,
  index: number,
): Promise<{ outcome: RunOutcome; next: NextRun | null }> {
  const now = ctx.clock.now();
  const transferId = newTransferId();
  // The payer, payee and amount never change: read first for the antifraud check, locked again in `before`.
  const asked = await scheduleById(ctx.db, id);
  if (asked?.status !== 'active' || asked.next_index !== index) return { outcome: 'stale', next: null };
  const payeeName = targetName(asked);
  let row: ScheduleRow | undefined;
  let ended = false;
  let result: Awaited<ReturnType<typeof runMoneyCall>>;
  try {
    result = await runMoneyCall(ctx, {
      call: 'scheduleCreate',
      person: asked.user_id,
      confirmation: { standingOrder: true },
      key: `run:${id}:${index}`,
      requestHash: 'schedule-run',
      before: async (q) => {
        ended = false;
        row = await claimRun(q, id, index, now);
        return row ? undefined : { skip: true };
      },
      prepare: () => {
        const schedule = row!;
        const reference = { type: 'scheduled_transfer', id: schedule.id } as const;
        return {
          answer: { transfer_id: transferId },
          door: schedule.goal_id
            ? goalMove({
                id: transferId,
                person: schedule.user_id,
                goal: { id: schedule.goal_id, name: payeeName },
                direction: 'deposit',
                amount: schedule.amount,
                at: now,
                reference,
              })
            : {
                door: 'pay',
                id: transferId,
                payer: schedule.user_id,
                payee: schedule.payee_id,
                currency: schedule.currency,
                amount: schedule.amount,
                kind: 'transfer',
                reference,
                description: {
                  debit: {
                    ru: `Регулярный перевод: ${payeeName}`,
                    en: `Scheduled transfer to ${nameIn(payeeName, 'en')}`,
                  },
                  credit: { ru: 'Регулярный перевод', en: 'Scheduled transfer' },
                },
                at: now,
                rules: ctx.config.levelRulesJson,
              },
        };
      },
      // The period's record and the next run, in the run's transaction whatever the door answered.
      after: async (q, outcome) => {
        if (outcome.outcome === 'refused' && row!.goal_id && outcome.refusal.rule === 'missing') {
          // The goal was deleted: its deposit ends here rather than telling of it every period.
          await q.query(
            `UPDATE schedule_runs SET reason = 'goal_closed' WHERE schedule_id = $1 AND period_index = $2`,
            [id, index],
          );
          await q.query(`UPDATE scheduled_transfers SET status = 'ended', next_run_at = NULL WHERE id = $1`, [
            id,
          ]);
          ended = true;
          return;
        }
        if (outcome.outcome === 'refused')
          await skipRun(q, row!, index, outcome.refusal.rule, refusalError(outcome.refusal), now);
        else
          await q.query(
            `UPDATE schedule_runs SET outcome = 'paid', transfer_id = $3 WHERE schedule_id = $1 AND period_index = $2`,
            [id, index, outcome.outcome === 'created' ? transferId : null],
          );
        await advance(q, row!, index);
      },
      // Held by the antifraud check: the period is spent, paid when the person confirms it.
      onHold: async (q) => {
        await q.query(
          `UPDATE schedule_runs SET outcome = 'held', transfer_id = $3 WHERE schedule_id = $1 AND period_index = $2`,
          [id, index, transferId],
        );
        await advance(q, row!, index);
      },
      // A goal's deposit is one's own money between one's own accounts: not outgoing, not checked.
      antifraud: asked.payee_id
        ? {
            payee: { userId: asked.payee_id, phone: asked.phone!, label: payeeName },
            amount: asked.amount,
            currency: asked.currency,
            language: 'ru',
          }
        : undefined,
    });
  } catch (error) {
    if (error instanceof CallHeld) return { outcome: 'held', next: nextAfter(asked, index) };
    if (!isAppError(error) || error.code !== 'RECIPIENT_FRAUD_LISTED') throw error;
    // A listed payee (the refusal recorded by the check): the period is skipped and the person told why.
    const skipped = await ctx.db.tx(async (q) => {
      const claimed = await claimRun(q, id, index, now);
      if (!claimed) return false;
      await skipRun(q, claimed, index, 'recipient_fraud_listed', error, now);
      await advance(q, claimed, index);
      return true;
    });
    return skipped ? { outcome: 'skipped', next: nextAfter(asked, index) } : { outcome: 'stale', next: null };
  }
  if (result.outcome === 'skipped') return { outcome: 'stale', next: null };
  if (ended) return { outcome: 'ended', next: null };
  return { outcome: result.outcome === 'refused' ? 'skipped' : 'paid', next: nextAfter(asked, index) };
}

/** The schedule locked and its period claimed (as skipped until paid), or undefined: stale or run already. */
async function claimRun(
  q: Queryable,
  id: string,
  index: number,
  now: Date,
): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>(`${SELECT_SCHEDULE} WHERE s.id = $1 FOR UPDATE OF s`, [id]);
  const row = rows[0];
  if (row?.status !== 'active' || row.next_index !== index) return undefined;
  const claimed = await q.query(
    `INSERT INTO schedule_runs (schedule_id, period_index, run_at, outcome, created_at)
     VALUES ($1, $2, $3, 'skipped', $4) ON CONFLICT DO NOTHING RETURNING period_index`,
    [id, index, row.next_run_at ?? now, now],
  );
  return claimed.rows.length === 0 ? undefined : row;
}

/** A skipped period: its reason kept and the person told why, in both languages. */
async function skipRun(
  q: Queryable,
  schedule: ScheduleRow,
  index: number,
  reason: string,
  error: AppError,
  now: Date,
): Promise<void> {
  await q.query('UPDATE schedule_runs SET reason = $3 WHERE schedule_id = $1 AND period_index = $2', [
    schedule.id,
    index,
    reason,
  ]);
  await notify(
    q,
    schedule.user_id,
    'schedule',
    schedule.goal_id ? 'schedule_goal_skipped' : 'schedule_skipped',
    {
      ...noticeParams(schedule),
      reason: errorMessage(error.code, 'ru', error.params),
      reason_en: errorMessage(error.code, 'en', error.params),
    },
    now,
  );
}

function nextAfter(schedule: ScheduleRow, index: number): NextRun | null {
  const at = runTime(schedule.first_run_at, schedule.period, index + 1);
  return schedule.ends_at !== null && at > schedule.ends_at
    ? null
    : { id: schedule.id, index: index + 1, at };
}

/** The schedule moved past period `index`: its next run, or its end. */
async function advance(q: Queryable, schedule: ScheduleRow, index: number): Promise<void> {
  const next = nextAfter(schedule, index);
  await q.query(
    'UPDATE scheduled_transfers SET next_index = $2, next_run_at = $3, status = $4 WHERE id = $1',
    [schedule.id, index + 1, next?.at ?? null, next ? 'active' : 'ended'],
  );
}

// A held run (docs/decisions/antifraud.md#antifraud-and-the-trusted-person) is paid when released; when its
// hold ends otherwise, skipped.
onRelease('scheduleCreate', {
  after: async (q, door) => {
    await q.query(`UPDATE schedule_runs SET outcome = 'paid' WHERE transfer_id = $1 AND outcome = 'held'`, [
      door.id,
    ]);
    return undefined;
  },
  closed: async (q, door) => {
    await q.query(
      `UPDATE schedule_runs SET outcome = 'skipped', reason = 'hold_closed', transfer_id = NULL
       WHERE transfer_id = $1 AND outcome = 'held'`,
      [door.id],
    );
  },
});

/** What a schedule's notices name: the payee as a sender sees them (or the goal) and the amount in both languages. */
function noticeParams(row: ScheduleRow): { name: string; amount: string; amount_en: string } {
  const amount = formatAmount(row.amount, row.currency);
  return {
    name: targetName(row),
    amount: formatMoney(amount, row.currency, 'ru'),
    amount_en: formatMoney(amount, row.currency, 'en'),
  };
}

/** The reminder the day before period `index`, once, while the schedule is still to run it. */
export async function remindSchedule(ctx: AppContext, id: string, index: number): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const row = await scheduleById(q, id);
    if (row?.status !== 'active' || row.goal_closed || row.next_index !== index) return false;
    const claimed = await q.query(
      `INSERT INTO schedule_reminders (schedule_id, period_index, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING period_index`,
      [id, index, now],
    );
    if (claimed.rows.length === 0) return false;
    const key = row.goal_id ? 'schedule_goal_reminder' : 'schedule_reminder';
    await notify(q, row.user_id, 'schedule', key, noticeParams(row), now);
    return true;
  });
}

/** Every active schedule's next run: what the queue is told again at start (a crash may have lost one). */
export async function pendingRuns(ctx: AppContext): Promise<NextRun[]> {
  const { rows } = await ctx.db.query<{ id: string; next_index: number; next_run_at: Date }>(
    `SELECT id, next_index, next_run_at FROM scheduled_transfers WHERE status = 'active' AND next_run_at IS NOT NULL`,
  );
  return rows.map((row) => ({ id: row.id, index: row.next_index, at: row.next_run_at }));
}
