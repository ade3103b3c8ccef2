/**
 * Savings goals, 'Копилка' (docs/decisions/managing-money.md#managing-money-categories-budgets-goals). A
 * goal's money is a ledger account of its own (db/functions/goals.sql); deposits, withdrawals and a goal's
 * closing are money calls of the one pipeline through the person's goal door (`ledger_goal`); round-ups
 * happen in the payment's own statement.
 */
import { randomUUID } from 'node:crypto';
import {
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
  type Language,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { accountsOf, type GoalMove, newTransferId } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { checkConfirmation, moneyCall, requestHash } from '../money-calls/index.ts';

type GoalView = AnswerOf<'goals'>['results'][number];
type RoundUp = GoalView['round_up'];

const MAX_GOALS = 20;
/** The pace of a goal: what it gained over this many recent days (or since it was made). */
const PACE_DAYS = 90;
const DAY_MS = 86_400_000;
/** The wallet's day is Moscow's (UTC+3 all year). */
const MOSCOW_MS = 3 * 3_600_000;

interface GoalRow {
  id: string;
  name: string;
  target_amount: bigint;
  currency: CurrencyCode;
  target_date: string | null;
  round_up: number;
  created_at: Date;
  account_id: string;
  saved: bigint;
  recent: bigint;
  /** On how many Moscow days of the pace's window money came in. */
  paying_days: number;
}

const GOAL_SQL = `SELECT g.id, g.name, g.target_amount, g.currency, g.target_date::text AS target_date, g.round_up,
    g.created_at, g.account_id, a.balance AS saved, pace.recent, pace.paying_days
  FROM savings_goals g JOIN ledger_accounts a ON a.id = g.account_id
  -- The pace's window read once: what it gained, and on how many Moscow days money came in.
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(e.amount), 0)::bigint AS recent,
      (count(DISTINCT ((e.created_at AT TIME ZONE 'UTC') + interval '3 hours')::date)
        FILTER (WHERE e.amount > 0))::int AS paying_days
    FROM ledger_entries e
    WHERE e.account_id = g.account_id AND e.created_at >= $2::timestamptz - interval '${PACE_DAYS} days'
  ) pace
  WHERE g.user_id = $1 AND g.closed_at IS NULL`;

const moscowDay = (time: number) => new Date(time + MOSCOW_MS).toISOString().slice(0, 10);

/**
 * When the target is reached at the goal's recent pace: today when it is; null until money came in on
 * two different days, since one deposit says nothing of a pace (it would promise the goal in days).
 */
export function expectedDate(
  goal: { target: bigint; saved: bigint; recent: bigint; payingDays: number; createdAt: Date },
  now: Date,
): string | null {
  if (goal.saved >= goal.target) return moscowDay(now.getTime());
  if (goal.payingDays < 2) return null;
  // The calendar days (Moscow) the goal has lived, today and its first day included.
  const dayOf = (time: Date) => Date.parse(moscowDay(time.getTime()));
  const days = Math.min(PACE_DAYS, (dayOf(now) - dayOf(goal.createdAt)) / DAY_MS + 1);
  if (goal.recent <= 0n) return null;
  const left = goal.target - goal.saved;
  // Whole days, rounded up: left / (recent / days).
  const daysLeft = (left * BigInt(days) + goal.recent - 1n) / goal.recent;
  return moscowDay(now.getTime() + Number(daysLeft) * DAY_MS);
}

function goalView(row: GoalRow, now: Date): GoalView {
  const target = BigInt(row.target_amount);
  const saved = BigInt(row.saved);
  return {
    id: row.id,
    name: row.name,
    target_amount: formatAmount(target, row.currency),
    saved: formatAmount(saved, row.currency),
    currency_code: row.currency,
    target_date: row.target_date,
    round_up: row.round_up as RoundUp,
    percent: Number(saved >= target ? 100n : (saved * 100n) / target),
    expected_date: expectedDate(
      {
        target,
        saved,
        recent: BigInt(row.recent),
        payingDays: Number(row.paying_days),
        createdAt: new Date(row.created_at),
      },
      now,
    ),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** One of the person's open goals, or null (another's, closed or none). */
export async function goalRow(
  q: Queryable,
  userId: string,
  goalId: string,
  now: Date,
): Promise<GoalRow | null> {
  const { rows } = await q.query<GoalRow>(`${GOAL_SQL} AND g.id = $3`, [userId, now, goalId]);
  return rows[0] ?? null;
}

/** How many of the person's open goals hold money (closing the wallet waits for them to be emptied). */
export async function goalsHoldingMoney(q: Queryable, userId: string): Promise<number> {
  const { rows } = await q.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM savings_goals g JOIN ledger_accounts a ON a.id = g.account_id
     WHERE g.user_id = $1 AND g.closed_at IS NULL AND a.balance > 0`,
    [userId],
  );
  return rows[0]?.count ?? 0;
}

export async function goalsOf(ctx: AppContext, userId: string): Promise<AnswerOf<'goals'>> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.query<GoalRow>(`${GOAL_SQL} ORDER BY g.created_at, g.id`, [userId, now]);
  return { results: rows.map((row) => goalView(row, now)), next: null };
}

export async function goalOf(ctx: AppContext, userId: string, goalId: string): Promise<AnswerOf<'goal'>> {
  const now = ctx.clock.now();
  const row = await goalRow(ctx.db, userId, goalId, now);
  if (!row) throw new AppError('NOT_FOUND');
  const { rows } = await ctx.db.query<{
    id: string;
    amount: bigint;
    created_at: Date;
    reference_type: string | null;
  }>(
    `SELECT e.transfer_id AS id, e.amount, e.created_at, t.reference_type
     FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
     WHERE e.account_id = $1 ORDER BY e.account_version DESC LIMIT 50`,
    [row.account_id],
  );
  return {
    ...goalView(row, now),
    history: rows.map((entry) => {
      const amount = BigInt(entry.amount);
      return {
        id: entry.id,
        kind: amount < 0n ? 'withdrawal' : entry.reference_type === 'goal_round_up' ? 'round_up' : 'deposit',
        amount: formatAmount(amount < 0n ? -amount : amount, row.currency),
        created_at: new Date(entry.created_at).toISOString(),
      };
    }),
  };
}

export async function createGoal(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'goalCreate'>,
): Promise<AnswerOf<'goalCreate'>> {
  const target = amountOf(body.target_amount, body.currency_code);
  const now = ctx.clock.now();
  const id = randomUUID();
  return ctx.db.tx(async (q) => {
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    if (!(await accountsOf(q, userId)).some((account) => account.currency === body.currency_code))
      throw new AppError('ACCOUNT_NOT_FOUND');
    const { rows } = await q.query<{ count: number }>(
      'SELECT count(*)::integer AS count FROM savings_goals WHERE user_id = $1 AND closed_at IS NULL',
      [userId],
    );
    if (rows[0]!.count >= MAX_GOALS) throw new AppError('GOAL_LIMIT', { limit: MAX_GOALS });
    await q.query('SELECT goal_open($1, $2, $3, $4, $5, $6::date, $7)', [
      id,
      userId,
      body.name,
      target,
      body.currency_code,
      body.target_date ?? null,
      now,
    ]);
    return goalView((await goalRow(q, userId, id, now))!, now);
  });
}

/** A new name, or the round-up: at most one goal rounds up, so choosing one stops the others'. */
export async function updateGoal(
  ctx: AppContext,
  userId: string,
  goalId: string,
  body: BodyOut<'goalUpdate'>,
): Promise<AnswerOf<'goalUpdate'>> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query(
      'SELECT 1 FROM savings_goals WHERE id = $1 AND user_id = $2 AND closed_at IS NULL FOR UPDATE',
      [goalId, userId],
    );
    if (rows.length === 0) throw new AppError('NOT_FOUND');
    if (body.round_up !== undefined && body.round_up > 0)
      await q.query(
        'UPDATE savings_goals SET round_up = 0 WHERE user_id = $1 AND id <> $2 AND round_up > 0 AND closed_at IS NULL',
        [userId, goalId],
      );
    await q.query(
      'UPDATE savings_goals SET name = coalesce($3, name), round_up = coalesce($4, round_up) WHERE id = $1 AND user_id = $2',
      [goalId, userId, body.name ?? null, body.round_up ?? null],
    );
    return goalView((await goalRow(q, userId, goalId, now))!, now);
  });
}

const MOVED: Record<'deposit' | 'withdraw' | 'close', Record<Language, string>> = {
  deposit: { ru: 'Деньги отложены в копилку', en: 'The money is in your goal' },
  withdraw: { ru: 'Деньги вернулись на счёт', en: 'The money is back in your account' },
  close: {
    ru: 'Копилка удалена, её деньги вернулись на счёт',
    en: 'The goal is deleted; its money is back in your account',
  },
};

/**
 * A deposit, a withdrawal or a goal's closing (all its money back first): a money call confirmed with
 * the PIN or a passkey (a closing only returns the owner's money and asks none), with Idempotency-Key.
 */
export async function moveGoalMoney(
  ctx: AppContext,
  userId: string,
  goalId: string,
  direction: 'deposit' | 'withdraw' | 'close',
  body: BodyOut<'goalDeposit'> | null,
  options: { idempotencyKey: string | null; language: Language },
): Promise<AnswerOf<'goalDeposit'>> {
  const at = ctx.clock.now();
  const goal = await goalRow(ctx.db, userId, goalId, at);
  if (!goal) {
    // The PIN's errors first, as for every money call; then the goal that is not there.
    if (body) await checkConfirmation(ctx, userId, body);
    throw new AppError('NOT_FOUND');
  }
  const amount = body ? amountOf(body.amount, goal.currency) : BigInt(goal.saved);
  const movementId = newTransferId();
  const answer: AnswerOf<'goalDeposit'> = {
    status: 'success',
    message: MOVED[direction][options.language],
    goal_id: goal.id,
    movement_id: movementId,
    amount: formatAmount(amount, goal.currency),
    currency_code: goal.currency,
  };
  return moneyCall(ctx, {
    call: direction === 'deposit' ? 'goalDeposit' : direction === 'withdraw' ? 'goalWithdraw' : 'goalDelete',
    person: userId,
    confirmation: body ?? { ownMoney: true },
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, { goal: goalId, amount: body?.amount ?? null }),
    prepare: () => ({
      answer,
      door: goalMove({ id: movementId, person: userId, goal, direction, amount, at }),
    }),
  });
}

/**
 * A move between the person's account and their goal as the door takes it, with the words its history
 * reads; a regular deposit's run names its standing order
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
 */
export function goalMove(move: {
  id: string;
  person: string;
  goal: { id: string; name: string };
  direction: GoalMove['direction'];
  amount: bigint;
  at: Date;
  reference?: GoalMove['reference'];
}): GoalMove {
  const { name } = move.goal;
  const description =
    move.direction === 'deposit'
      ? {
          debit: { ru: `В копилку «${name}»`, en: `To the goal “${name}”` },
          credit: { ru: 'Пополнение копилки', en: 'Goal deposit' },
        }
      : {
          debit: { ru: 'Из копилки', en: 'From the goal' },
          credit: { ru: `Из копилки «${name}»`, en: `From the goal “${name}”` },
        };
  return {
    door: 'goal',
    id: move.id,
    person: move.person,
    goalId: move.goal.id,
    direction: move.direction,
    amount: move.amount,
    reference: move.reference ?? null,
    description,
    at: move.at,
  };
}
