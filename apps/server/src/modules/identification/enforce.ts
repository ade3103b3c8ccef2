/**
 * The identification level's rules, enforced on every money call (decisions.md section 6): what a
 * level may do (top-up, withdrawal, transfers to people; payments to merchants at every level), its
 * balance cap and its monthly outgoing limit. Errors name the limit with its amount.
 *
 * Call these inside the same database transaction as the ledger transfer, before it. Each operation
 * first locks the rows of the people involved in id order (`lockUsers`, one statement, FOR NO KEY
 * UPDATE), so two concurrent operations of one person are checked one after the other and cannot both
 * slip under a limit, and opposite transfers cannot deadlock; then reads the figures the limits need
 * (`moneyFigures`, one statement after the locks) and checks them (`check*`, no database). The
 * `assertMay*` functions do all three for one person.
 *
 * Amounts are RUB minor units: only RUB enters or leaves a wallet today (top-up and withdrawal are
 * RUB only), so the limits apply to RUB amounts; other currencies pass the permission checks only.
 */
import { type CurrencyCode, formatAmount, type MoneyParam } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { outgoingSql, rubTotalSql } from '../../ledger/index.ts';
import { type LevelName, type LevelRules, levelRules, monthStart } from './levels.ts';

export type SpendKind = 'withdrawal' | 'transfer' | 'payment';

/** A RUB amount for an error's message, written in the reader's language (the contract's MoneyParam). */
export function rubParam(minor: bigint): MoneyParam {
  return { amount: formatAmount(minor, 'RUB'), currency: 'RUB' };
}

/** A person whose row is locked for this transaction, with what the money rules read of them. */
export interface LockedUser {
  id: string;
  level: LevelName;
  rules: LevelRules;
  firstName: string;
  lastName: string;
}

/**
 * Locks the users' rows in one fixed order (by id, one statement), so transactions touching the same
 * people never deadlock and two operations of one person are checked one after the other. Answers
 * each one's level with its rules, and name.
 */
export async function lockUsers(
  q: Queryable,
  ctx: AppContext,
  userIds: string[],
): Promise<Map<string, LockedUser>> {
  const ids = [...new Set(userIds)].sort();
  const { rows } = await q.query<{
    id: string;
    identification_level: LevelName;
    first_name: string;
    last_name: string;
  }>(
    `SELECT id, identification_level, first_name, last_name FROM users WHERE id = ANY($1::uuid[])
     ORDER BY id FOR NO KEY UPDATE`,
    [ids],
  );
  const missing = ids.find((id) => !rows.some((row) => row.id === id));
  if (missing) throw new AppError('INVALID_TOKEN', {}, `user ${missing} does not exist`);
  const rules = levelRules(ctx.config.IDENTIFICATION_LIMITS);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        level: row.identification_level,
        rules: rules[row.identification_level],
        firstName: row.first_name,
        lastName: row.last_name,
      },
    ]),
  );
}

/** What the limits read of a locked user, all in RUB minor units except the account. */
export interface MoneyFigures {
  /** The user's account in the operation's currency, if any. */
  accountId: string | null;
  /** RUB balance plus money on its way in (the balance cap). */
  rubTotal: bigint;
  /** RUB that left this calendar month (the monthly limit); read for the spender only, else null. */
  outgoingThisMonth: bigint | null;
}

/**
 * The figures of users locked with `lockUsers`, in one statement. Read after the locks (a statement
 * of its own), so they include everything committed by operations that held those locks before.
 * The monthly outgoing sum, an index range over the month's debits, is read for `spender` only.
 */
export async function moneyFigures(
  q: Queryable,
  ctx: AppContext,
  userIds: string[],
  currency: CurrencyCode,
  spender: string | null,
): Promise<Map<string, MoneyFigures>> {
  const { rows } = await q.query<{
    id: string;
    account_id: string | null;
    rub_total: bigint;
    outgoing: bigint | null;
  }>(
    `SELECT u.id,
       (SELECT a.id FROM ledger_accounts a WHERE a.user_id = u.id AND a.currency = $2::text) AS account_id,
       ${rubTotalSql('u.id')} AS rub_total,
       CASE WHEN u.id = $4::uuid THEN ${outgoingSql('u.id', '$3::timestamptz')} END AS outgoing
     FROM unnest($1::uuid[]) AS u (id)`,
    [[...new Set(userIds)], currency, monthStart(ctx.clock.now()), spender],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        accountId: row.account_id,
        rubTotal: BigInt(row.rub_total),
        outgoingThisMonth: row.outgoing === null ? null : BigInt(row.outgoing),
      },
    ]),
  );
}

/** RUB_BALANCE cap: the RUB balance after receiving `amountMinor` stays within balance_max. */
export function checkBalanceRoom(
  user: LockedUser,
  figures: MoneyFigures,
  amountMinor: bigint,
  currency: CurrencyCode,
  code: 'LIMIT_BALANCE' | 'RECIPIENT_LIMIT_BALANCE',
): void {
  if (currency !== 'RUB') return;
  if (figures.rubTotal + amountMinor > user.rules.balanceMax) {
    throw new AppError(code, { limit: rubParam(user.rules.balanceMax) });
  }
}

/**
 * Money may leave the user: withdrawals and transfers need the level's permission
 * (WITHDRAWAL_NOT_ALLOWED, TRANSFER_NOT_ALLOWED; payments are allowed at every level).
 */
export function checkSpendAllowed(user: LockedUser, kind: SpendKind): void {
  if (kind === 'withdrawal' && !user.rules.withdrawal) throw new AppError('WITHDRAWAL_NOT_ALLOWED');
  if (kind === 'transfer' && !user.rules.transfer) throw new AppError('TRANSFER_NOT_ALLOWED');
}

/** This calendar month's outgoing sum (Moscow time) plus the amount stays within monthly_outgoing_max (LIMIT_MONTHLY {limit, left}). */
export function checkMonthlyRoom(
  user: LockedUser,
  figures: MoneyFigures,
  amountMinor: bigint,
  currency: CurrencyCode,
): void {
  const max = user.rules.monthlyOutgoingMax;
  if (max === null || currency !== 'RUB') return;
  const used = figures.outgoingThisMonth;
  if (used === null) throw new Error('monthly outgoing not read: pass the spender to moneyFigures');
  if (used + amountMinor > max) {
    const left = max > used ? max - used : 0n;
    throw new AppError('LIMIT_MONTHLY', { limit: rubParam(max), left: rubParam(left) });
  }
}

async function lockOne(q: Queryable, ctx: AppContext, userId: string): Promise<LockedUser> {
  return (await lockUsers(q, ctx, [userId])).get(userId)!;
}

async function figuresOf(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  currency: CurrencyCode,
  spends: boolean,
): Promise<MoneyFigures> {
  return (await moneyFigures(q, ctx, [userId], currency, spends ? userId : null)).get(userId)!;
}

/**
 * A top-up of `amountMinor` may start (and may be credited): the level allows top-ups
 * (TOPUP_NOT_ALLOWED) and the RUB balance after it stays within balance_max (LIMIT_BALANCE {limit}).
 */
export async function assertMayTopUp(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  amountMinor: bigint,
  currency: CurrencyCode,
): Promise<void> {
  const user = await lockOne(q, ctx, userId);
  if (!user.rules.topup) throw new AppError('TOPUP_NOT_ALLOWED');
  if (currency !== 'RUB') return;
  checkBalanceRoom(
    user,
    await figuresOf(q, ctx, userId, currency, false),
    amountMinor,
    currency,
    'LIMIT_BALANCE',
  );
}

/** Money may leave the user: the level's permission and the monthly limit (see the checks above). */
export async function assertMaySpend(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  kind: SpendKind,
  amountMinor: bigint,
  currency: CurrencyCode,
): Promise<void> {
  const user = await lockOne(q, ctx, userId);
  checkSpendAllowed(user, kind);
  if (user.rules.monthlyOutgoingMax === null || currency !== 'RUB') return;
  checkMonthlyRoom(user, await figuresOf(q, ctx, userId, currency, true), amountMinor, currency);
}

/**
 * The recipient of a transfer may receive `amountMinor`: their RUB balance after it stays within their
 * level's balance_max (RECIPIENT_LIMIT_BALANCE, which tells the sender nothing about the recipient's level).
 */
export async function assertMayReceive(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  amountMinor: bigint,
  currency: CurrencyCode,
): Promise<void> {
  const user = await lockOne(q, ctx, userId);
  if (currency !== 'RUB') return;
  checkBalanceRoom(
    user,
    await figuresOf(q, ctx, userId, currency, false),
    amountMinor,
    currency,
    'RECIPIENT_LIMIT_BALANCE',
  );
}
