/**
 * Monthly budgets (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): one per
 * category or for all spending, in one currency. What a budget has spent in the Moscow month and when it
 * tells the person are decided by db/functions/budgets.sql; this module keeps the budgets and reads their
 * progress.
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
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { isCategoryOf } from '../categories/index.ts';

type BudgetView = AnswerOf<'budgets'>['results'][number];

const MAX_BUDGETS = 20;

interface BudgetRow {
  id: string;
  category: string | null;
  name: string;
  amount: bigint;
  currency: CurrencyCode;
  spent: bigint;
  month: Date;
}

const BUDGET_SQL = `SELECT b.id, b.category, category_name(b.category, $2) AS name, b.amount, b.currency,
    budgets_spent(b.user_id, b.category, b.currency, $3) AS spent, limits_month($3) AS month
  FROM budgets b WHERE b.user_id = $1`;

function budgetView(row: BudgetRow): BudgetView {
  const amount = BigInt(row.amount);
  const spent = BigInt(row.spent);
  return {
    id: row.id,
    category: row.category,
    name: row.name,
    amount: formatAmount(amount, row.currency),
    currency_code: row.currency,
    spent: formatAmount(spent, row.currency),
    percent: Number((spent * 100n) / amount),
    month: new Date(row.month).toISOString(),
  };
}

export async function budgetsOf(
  ctx: AppContext,
  userId: string,
  language: Language,
): Promise<AnswerOf<'budgets'>> {
  const { rows } = await ctx.db.query<BudgetRow>(
    `${BUDGET_SQL} ORDER BY b.category IS NOT NULL, b.created_at, b.id`,
    [userId, language, ctx.clock.now()],
  );
  return { results: rows.map(budgetView), next: null };
}

/** Sets the budget of a category (or of all spending): a new one, or a new amount for the one there is. */
export async function putBudget(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'budgetPut'>,
  language: Language,
): Promise<AnswerOf<'budgetPut'>> {
  const amount = amountOf(body.amount, body.currency_code);
  const category = body.category ?? null;
  const at = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    if (category !== null && !(await isCategoryOf(q, userId, category)))
      throw new AppError('FIELD_INVALID', { field: 'category' });
    const { rows: count } = await q.query<{ count: number }>(
      `SELECT count(*)::integer AS count FROM budgets WHERE user_id = $1 AND category IS DISTINCT FROM $2`,
      [userId, category],
    );
    if (count[0]!.count >= MAX_BUDGETS) throw new AppError('BUDGET_LIMIT', { limit: MAX_BUDGETS });
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO budgets (id, user_id, category, amount, currency, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, coalesce(category, '')) DO UPDATE SET amount = EXCLUDED.amount, currency = EXCLUDED.currency
       RETURNING id`,
      [randomUUID(), userId, category, amount, body.currency_code, at],
    );
    // A budget set below what the month has spent tells the person at once, as spending would.
    await q.query('SELECT budgets_after_spend($1, $2)', [userId, at]);
    const { rows: read } = await q.query<BudgetRow>(`${BUDGET_SQL} AND b.id = $4`, [
      userId,
      language,
      at,
      rows[0]!.id,
    ]);
    return budgetView(read[0]!);
  });
}

export async function deleteBudget(
  ctx: AppContext,
  userId: string,
  category: string | undefined,
): Promise<void> {
  const { rows } = await ctx.db.query(
    'DELETE FROM budgets WHERE user_id = $1 AND category IS NOT DISTINCT FROM $2 RETURNING id',
    [userId, category ?? null],
  );
  if (rows.length === 0) throw new AppError('NOT_FOUND');
}
