/**
 * Managing money (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): categories of
 * operations, monthly budgets and savings goals ('Копилка'). The calls are in calls.ts; their shapes here.
 */
import { z } from 'zod';
import { PlainText } from './plain-text.ts';
import {
  AccountCurrencySchema,
  Amount,
  AmountOut,
  CurrencyCodeSchema,
  confirmedBy,
  DateTime,
  DayBound,
  Id,
} from './schemas.ts';

/** The fixed categories, named in the person's language by the server (GET /v2/wallet/categories). */
export const FIXED_CATEGORIES = [
  'groceries',
  'cafes',
  'transport',
  'telecom',
  'utilities',
  'health',
  'people',
  'cash',
  'other',
] as const;
export type FixedCategory = (typeof FIXED_CATEGORIES)[number];

/** A category: a fixed one's code, or the id of one of the person's own. */
export const CategoryRef = z.string().min(1).max(40);

export const Category = z.object({
  id: CategoryRef,
  name: z.string(),
  custom: z.boolean(),
});
export const CategoryList = z.object({ results: z.array(Category), next: z.null() });
export const CategoryCreate = z.strictObject({ name: PlainText(40) });
export const TransactionCategoryUpdate = z.strictObject({ category: CategoryRef });
export const TransactionCategoryAnswer = z.object({
  status: z.literal('success'),
  category: Category,
});

// ---------- budgets ----------

export const BudgetPut = z.strictObject({
  /** Absent: a budget for all spending. */
  category: CategoryRef.optional(),
  amount: Amount,
  currency_code: AccountCurrencySchema,
});
export const BudgetDeleteQuery = z.strictObject({ category: CategoryRef.optional() });
export const Budget = z.object({
  id: Id,
  category: CategoryRef.nullable(),
  name: z.string(),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  /** Spent in this Moscow month. */
  spent: AmountOut,
  percent: z.number().int(),
  month: DateTime,
});
export const BudgetList = z.object({ results: z.array(Budget), next: z.null() });

// ---------- savings goals ----------

export const RoundUp = z.union([z.literal(0), z.literal(10), z.literal(50), z.literal(100)]);
export const GoalCreate = z.strictObject({
  name: PlainText(60),
  target_amount: Amount,
  currency_code: AccountCurrencySchema,
  target_date: DayBound.optional(),
});
export const GoalUpdate = z.strictObject({
  name: PlainText(60).optional(),
  round_up: RoundUp.optional(),
});
export const GoalMoveRequest = confirmedBy({ amount: Amount });
export const GoalMovement = z.object({
  id: Id,
  kind: z.enum(['deposit', 'withdrawal', 'round_up']),
  amount: AmountOut,
  created_at: DateTime,
});
export const Goal = z.object({
  id: Id,
  name: z.string(),
  target_amount: AmountOut,
  saved: AmountOut,
  currency_code: CurrencyCodeSchema,
  target_date: z.iso.date().nullable(),
  round_up: RoundUp,
  percent: z.number().int(),
  /** When the target is reached at the pace of the last 90 days; null without any saving yet. */
  expected_date: z.iso.date().nullable(),
  created_at: DateTime,
});
export const GoalDetail = Goal.extend({ history: z.array(GoalMovement) });
export const GoalList = z.object({ results: z.array(Goal), next: z.null() });
/** Made before the money moves (a repeat gets it as stored): the goal is read again for its figures. */
export const GoalMoveAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  goal_id: Id,
  movement_id: Id,
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
});
