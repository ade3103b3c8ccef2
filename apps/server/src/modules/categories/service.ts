/**
 * Categories of a person's operations
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals). Which category an operation has
 * is decided by db/functions/categories.sql (`category_of`) and the names by `category_name` (budgets.sql);
 * this module lists them, keeps a person's own names and their choices.
 */

import { randomUUID } from 'node:crypto';
import { type AnswerOf, FIXED_CATEGORIES, ID_PATTERN, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';

type CategoryView = AnswerOf<'categories'>['results'][number];

/** A person's own names at most: the list stays a list to choose from. */
const MAX_CUSTOM = 30;

export async function categoriesOf(
  q: Queryable,
  userId: string,
  language: Language,
): Promise<AnswerOf<'categories'>> {
  const { rows } = await q.query<CategoryView>(
    `SELECT id, name, custom FROM (
       SELECT f.code AS id, category_name(f.code, $2) AS name, false AS custom, f.n AS ord
       FROM unnest($3::text[]) WITH ORDINALITY AS f (code, n)
       UNION ALL
       SELECT c.id::text, c.name, true, 0 FROM custom_categories c WHERE c.user_id = $1) listed
     ORDER BY custom, ord, lower(name)`,
    [userId, language, [...FIXED_CATEGORIES]],
  );
  return { results: rows, next: null };
}

/** Whether `category` names a fixed category or one of the person's own. */
export async function isCategoryOf(q: Queryable, userId: string, category: string): Promise<boolean> {
  if ((FIXED_CATEGORIES as readonly string[]).includes(category)) return true;
  if (!ID_PATTERN.test(category)) return false;
  const { rows } = await q.query('SELECT 1 FROM custom_categories WHERE id = $1 AND user_id = $2', [
    category,
    userId,
  ]);
  return rows.length > 0;
}

export async function categoryView(
  q: Queryable,
  category: string,
  language: Language,
): Promise<CategoryView> {
  const { rows } = await q.query<{ name: string }>('SELECT category_name($1, $2) AS name', [
    category,
    language,
  ]);
  return {
    id: category,
    name: rows[0]!.name,
    custom: !(FIXED_CATEGORIES as readonly string[]).includes(category),
  };
}

/** A person's own category; the same name again answers the one they have. */
export async function createCategory(ctx: AppContext, userId: string, name: string): Promise<CategoryView> {
  return ctx.db.tx(async (q) => {
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const found = await q.query<CategoryView>(
      `SELECT id::text, name, true AS custom FROM custom_categories WHERE user_id = $1 AND lower(name) = lower($2)`,
      [userId, name],
    );
    if (found.rows[0]) return found.rows[0];
    const { rows } = await q.query<{ count: number }>(
      'SELECT count(*)::integer AS count FROM custom_categories WHERE user_id = $1',
      [userId],
    );
    if (rows[0]!.count >= MAX_CUSTOM) throw new AppError('CATEGORY_LIMIT', { limit: MAX_CUSTOM });
    const id = randomUUID();
    await q.query('INSERT INTO custom_categories (id, user_id, name, created_at) VALUES ($1, $2, $3, $4)', [
      id,
      userId,
      name,
      ctx.clock.now(),
    ]);
    return { id, name, custom: true };
  });
}

/**
 * The person's choice for one of their outgoing operations, remembered for its payee: their next
 * operations to that payee take it. Anyone else's operation, or money that is not spent (an exchange,
 * a savings move), answers NOT_FOUND. Budgets hear of it, since it can move money into a category.
 */
export async function setTransactionCategory(
  ctx: AppContext,
  userId: string,
  transferId: string,
  category: string,
  language: Language,
): Promise<AnswerOf<'transactionCategory'>> {
  const at = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    if (!(await isCategoryOf(q, userId, category)))
      throw new AppError('FIELD_INVALID', { field: 'category' });
    const { rows } = await q.query<{ payee: string | null }>(
      `SELECT category_payee(t) AS payee FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
       WHERE t.id = $1 AND a.user_id = $2 AND t.kind NOT IN ('exchange', 'savings')`,
      [transferId, userId],
    );
    const found = rows[0];
    if (!found) throw new AppError('NOT_FOUND');
    await q.query(
      `INSERT INTO operation_categories (user_id, transfer_id, category, chosen_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, transfer_id) DO UPDATE SET category = EXCLUDED.category, chosen_at = EXCLUDED.chosen_at`,
      [userId, transferId, category, at],
    );
    if (found.payee !== null)
      await q.query(
        `INSERT INTO payee_categories (user_id, payee, category, chosen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, payee) DO UPDATE SET category = EXCLUDED.category, chosen_at = EXCLUDED.chosen_at`,
        [userId, found.payee, category, at],
      );
    await q.query('SELECT budgets_after_spend($1, $2)', [userId, at]);
    return { status: 'success', category: await categoryView(q, category, language) };
  });
}
