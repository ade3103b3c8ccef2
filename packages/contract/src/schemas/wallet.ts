/** The wallet: accounts, history, statistics and notifications. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import {
  AccountCurrencySchema,
  AmountOut,
  CurrencyCodeSchema,
  Cursor,
  DateBound,
  DateTime,
  Id,
  Limit,
  page,
} from './common.ts';

export const Account = z.object({
  id: Id,
  currency_code: CurrencyCodeSchema,
  balance: AmountOut,
  created_at: DateTime,
});
export const WalletList = z.object({
  results: z.array(z.object({ id: z.string(), accounts: z.array(Account) })),
  next: z.string().nullable(),
});
export const OpenAccountRequest = z.strictObject({ currency_code: AccountCurrencySchema });
export const IdParams = z.strictObject({ id: Id });

/** 'savings': money moved into or out of one's savings goal, apart from spending. */
/**
 * A held operation's states (docs/decisions/antifraud.md#antifraud-and-the-trusted-person); antifraud.ts
 * shows them on a hold.
 */
export const HOLD_STATUSES = [
  'held',
  'awaiting_approval',
  'released',
  'cancelled',
  'expired',
  'declined',
  'refused',
] as const;

export const TransactionType = z.enum([
  'topup',
  'withdrawal',
  'payment',
  'transfer',
  'exchange',
  'savings',
  'other',
]);
export const Transaction = z.object({
  id: Id,
  account_id: Id,
  amount: AmountOut.describe('signed: negative for money out'),
  currency_code: CurrencyCodeSchema,
  description: z.string(),
  created_at: DateTime,
  wallet_transaction_type: TransactionType,
  kind: z.string(),
  status: z.enum(['pending', 'complete', 'failed']),
  /** An СБП transfer: 'Повторить' opens the СБП form (docs/decisions/sbp.md#saved-payees-and-repeat). */
  way: z.literal('sbp').optional(),
  /** A payout's fee, part of its one row: held, paid or returned with it (docs/decisions/sbp.md#fees). */
  fee: AmountOut.optional(),
  /**
   * Money spent: its category (docs/decisions/managing-money.md#managing-money-categories-budgets-goals);
   * null for money in and one's own moves.
   */
  category: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
  /** An exchange is one operation with both amounts: what left and what arrived. */
  exchange: z
    .object({
      from_amount: AmountOut,
      from_currency: CurrencyCodeSchema,
      to_amount: AmountOut,
      to_currency: CurrencyCodeSchema,
    })
    .optional(),
  /**
   * An operation the antifraud check held is one row whose status follows its hold: `id` is the held
   * money's until it is released, then the money that left (docs/decisions/history-and-trust.md).
   */
  hold: z.object({ id: Id, status: z.enum(HOLD_STATUSES) }).optional(),
});
export const TransactionQuery = z.strictObject({
  ordering: z.enum(['-created_at', 'created_at']).optional(),
  account: Id.optional(),
  date_from: DateBound.optional(),
  date_to: DateBound.optional(),
  cursor: Cursor.optional(),
  limit: Limit.optional(),
  /** Only money spent in this category (a fixed category's code or one's own category's id). */
  category: z.string().min(1).max(40).optional(),
});
export const TransactionPage = page(Transaction);

export const StatQuery = z.strictObject({
  account: Id.optional(),
  currency_code: CurrencyCodeSchema.optional(),
  date_from: DateBound.optional(),
  date_to: DateBound.optional(),
  /**
   * 'category': money spent by category
   * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals) instead of money by type.
   */
  group_by: z.enum(['type', 'category']).optional(),
});
export const StatEntry = z.object({
  wallet_transaction_type: TransactionType,
  amount: AmountOut.describe('money in and out of this type together (what the percent is of)'),
  amount_in: AmountOut,
  amount_out: AmountOut,
  percent: z.number(),
  count: z.number().int(),
});
export const StatByType = z.object({
  results: z.array(StatEntry),
  next: z.null(),
  currency_code: CurrencyCodeSchema,
  total: AmountOut.describe('money moved either way; total_in and total_out say which'),
  total_in: AmountOut.describe('money from others; an exchange between own accounts is not counted'),
  total_out: AmountOut.describe('money spent; an exchange between own accounts is not counted'),
});
/** Money spent by category: the amounts sum to `total`, which is the by-type answer's `total_out`. */
export const StatByCategory = z.object({
  group_by: z.literal('category'),
  results: z.array(
    z.object({
      category: z.string(),
      name: z.string(),
      amount: AmountOut,
      percent: z.number(),
      count: z.number().int(),
    }),
  ),
  next: z.null(),
  currency_code: CurrencyCodeSchema,
  total: AmountOut,
});
export const StatAnswer = z.union([StatByType, StatByCategory]);

/** What a notification is about, so tapping it opens that: an operation by its id, or a screen. */
export const NOTIFICATION_SUBJECTS = [
  'operation',
  'holds',
  'approvals',
  'trusted_person',
  'requests',
  'schedules',
  'savings',
  'budgets',
  'identification',
  'security',
  'support',
  'wallet',
] as const;
export const NotificationAbout = z.object({
  type: z.enum(NOTIFICATION_SUBJECTS),
  /** The operation's id (as the history's row has it), for type 'operation'. */
  id: Id.optional(),
});
export type NotificationAbout = z.infer<typeof NotificationAbout>;
export const Notification = z.object({
  id: Id,
  created_at: DateTime,
  message: z.string(),
  kind: z.string(),
  is_read: z.boolean(),
  about: NotificationAbout,
});
export const NotificationQuery = z.strictObject({ cursor: Cursor.optional(), limit: Limit.optional() });
export const NotificationPage = z.object({
  results: z.array(Notification),
  next: z.string().nullable(),
  unread: z.number().int(),
});
export const NotificationReadRequest = z.strictObject({ ids: z.array(Id).max(100).optional() });
