/**
 * The signed-in user as the app reads it (GET /v2/wallet/auth/info): person, identification level,
 * permissions and limits. Permissions and limits come from the same level table every money call
 * enforces (policy/levels.ts), so the app never shows what the server refuses.
 */
import { type AnswerOf, formatAmount } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { sentThisMonth } from '../../ledger/index.ts';
import { type LevelName, nextLevel } from '../../policy/levels.ts';
import { activeIdentification } from '../identification/index.ts';
import { hasAcceptedTerms, TERMS_VERSION } from '../terms/index.ts';

export type AuthInfo = AnswerOf<'authInfo'>;
export type UserLimits = AuthInfo['limits'];

/** The RUB limits of a user at a level: the caps and how much of this month's outgoing cap is used. */
export async function limitsOf(
  q: Queryable,
  ctx: AppContext,
  userId: string,
  level: LevelName,
): Promise<UserLimits> {
  const rules = ctx.config.levels[level];
  const used = await sentThisMonth(q, userId, ctx.clock.now());
  const max = rules.monthlyOutgoingMax;
  const left = max === null ? null : max > used ? max - used : 0n;
  return {
    currency_code: 'RUB',
    balance_max: formatAmount(rules.balanceMax, 'RUB'),
    monthly_outgoing_max: max === null ? null : formatAmount(max, 'RUB'),
    monthly_outgoing_used: formatAmount(used, 'RUB'),
    monthly_outgoing_left: left === null ? null : formatAmount(left, 'RUB'),
  };
}

/** The whole auth info answer of a user. */
export async function authInfo(q: Queryable, ctx: AppContext, userId: string): Promise<AuthInfo> {
  const { rows } = await q.query<{
    first_name: string;
    last_name: string;
    phone: string;
    email: string;
    created_at: Date;
    identification_level: LevelName;
    has_pin: boolean;
    is_frozen: boolean;
  }>(
    `SELECT first_name, last_name, phone, email, created_at, identification_level,
            pin_hash IS NOT NULL AS has_pin, frozen_at IS NOT NULL AS is_frozen
     FROM users WHERE id = $1`,
    [userId],
  );
  const user = rows[0];
  if (!user) throw new AppError('INVALID_TOKEN', {}, 'session of a missing user');
  const level = user.identification_level;
  const rules = ctx.config.levels[level];
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone,
    email: user.email,
    registered_at: user.created_at.toISOString(),
    has_pin: user.has_pin,
    identification_level: { name: level, ask_for_next: nextLevel(level) !== null },
    active_identification: await activeIdentification(q, userId),
    is_topup_allowed: rules.topup,
    is_withdrawal_allowed: rules.withdrawal,
    is_transfer_allowed: rules.transfer,
    is_exchange_allowed: rules.exchange,
    is_frozen: user.is_frozen,
    limits: await limitsOf(q, ctx, userId, level),
    terms: { version: TERMS_VERSION, accepted: await hasAcceptedTerms(q, userId) },
  };
}
