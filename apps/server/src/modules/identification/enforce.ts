/**
 * The identification level's rules, enforced on every money call (decisions.md section 6): what a
 * level may do (top-up, withdrawal, transfers to people; payments to merchants at every level), its
 * balance cap and its monthly outgoing limit. Errors name the limit with its amount.
 *
 * Call these inside the same database transaction as the ledger transfer, before it: each one locks
 * the user's row (FOR NO KEY UPDATE), so two concurrent operations of one person are checked one
 * after the other and cannot both slip under a limit. Where two people are involved (a transfer),
 * call `lockUsersInOrder(q, [sender, recipient])` first so opposite transfers cannot deadlock.
 *
 * Amounts are RUB minor units: only RUB enters or leaves a wallet today (top-up and withdrawal are
 * RUB only), so the limits apply to RUB amounts; other currencies pass the permission checks only.
 */
import { type CurrencyCode, formatAmount } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { outgoingSince, totalBalanceRub } from '../../ledger/index.ts';
import { type LevelRules, levelRules, monthStart } from './levels.ts';
import { lockUserLevel } from './service.ts';

export type SpendKind = 'withdrawal' | 'transfer' | 'payment';

/** A RUB amount as a person reads it in Russian: 1500000n -> '15 000,00 ₽'. */
export function formatRub(minor: bigint): string {
  const [whole = '0', fraction = '00'] = formatAmount(minor, 'RUB').split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${negative ? '-' : ''}${grouped},${fraction} ₽`;
}

async function lockedRules(q: Queryable, ctx: AppContext, userId: string): Promise<LevelRules> {
  const level = await lockUserLevel(q, userId);
  return levelRules(ctx.config.IDENTIFICATION_LIMITS)[level];
}

/** Locks several users' rows in one fixed order (by id), so transactions touching the same people never deadlock. */
export async function lockUsersInOrder(q: Queryable, userIds: string[]): Promise<void> {
  for (const id of [...new Set(userIds)].sort()) await lockUserLevel(q, id);
}

async function assertBalanceRoom(
  q: Queryable,
  rules: LevelRules,
  userId: string,
  amountMinor: bigint,
  currency: CurrencyCode,
  code: 'LIMIT_BALANCE' | 'RECIPIENT_LIMIT_BALANCE',
): Promise<void> {
  if (currency !== 'RUB') return;
  const balance = await totalBalanceRub(q, userId);
  if (balance + amountMinor > rules.balanceMax) {
    throw new AppError(code, { limit: formatRub(rules.balanceMax) });
  }
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
  const rules = await lockedRules(q, ctx, userId);
  if (!rules.topup) throw new AppError('TOPUP_NOT_ALLOWED');
  await assertBalanceRoom(q, rules, userId, amountMinor, currency, 'LIMIT_BALANCE');
}

/**
 * Money may leave the user: withdrawals and transfers need the level's permission
 * (WITHDRAWAL_NOT_ALLOWED, TRANSFER_NOT_ALLOWED; payments are allowed at every level), and this
 * calendar month's outgoing sum (Moscow time) plus the amount stays within monthly_outgoing_max
 * (LIMIT_MONTHLY {limit, left}).
 */
export async function assertMaySpend(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  kind: SpendKind,
  amountMinor: bigint,
  currency: CurrencyCode,
): Promise<void> {
  const rules = await lockedRules(q, ctx, userId);
  if (kind === 'withdrawal' && !rules.withdrawal) throw new AppError('WITHDRAWAL_NOT_ALLOWED');
  if (kind === 'transfer' && !rules.transfer) throw new AppError('TRANSFER_NOT_ALLOWED');
  const max = rules.monthlyOutgoingMax;
  if (max === null || currency !== 'RUB') return;
  const used = await outgoingSince(q, userId, monthStart(ctx.clock.now()));
  if (used + amountMinor > max) {
    const left = max > used ? max - used : 0n;
    throw new AppError('LIMIT_MONTHLY', { limit: formatRub(max), left: formatRub(left) });
  }
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
  const rules = await lockedRules(q, ctx, userId);
  await assertBalanceRoom(q, rules, userId, amountMinor, currency, 'RECIPIENT_LIMIT_BALANCE');
}
