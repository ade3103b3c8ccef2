/**
 * Closing the wallet (docs/decisions/account.md#a-persons-account). What it would do is shown first
 * (`closePreview`); closing asks a fresh SMS code and the PIN or a passkey. Roubles leave through the payout
 * path a withdrawal takes (`withdraw` of modules/withdrawal), judged by the antifraud check as a withdrawal
 * is: where a withdrawal would wait (a sign, the trusted person), closing is refused with what to do,
 * for nothing can wait for a wallet that is gone. Other currencies must be exchanged or spent first,
 * and operations still in progress (a payout, a top-up, a held operation or one awaiting approval)
 * refuse it. Then, in one transaction: schedules end (the
 * person's and those paying them), their pending requests are cancelled or declined, sessions end,
 * passkeys and push subscriptions go, and the phone moves to `closed_phone`, so it can register a new
 * wallet and the old one can no longer sign in. Every record stays for the operators.
 */
import { type AnswerOf, type BodyOut, errorMessage, formatMoney, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LevelName } from '../../policy/levels.ts';
import { maskCard, normalizeCardNumber } from '../../providers/payouts/payouts-provider.ts';
import { revokeAllSessions, type SessionRef } from '../../sessions/tokens.ts';
import {
  endOwnTrustedPerson,
  endTrustedRoles,
  type HoldVerdict,
  reasonText,
  trustedPersonInForce,
} from '../antifraud/index.ts';
import { checkPin, lockPhone, message, sendNotice, verifyCode } from '../auth/index.ts';
import { goalsHoldingMoney } from '../goals/index.ts';
import { verifyPasskey } from '../passkeys/index.ts';
import { PAYOUT_STUCK_AFTER_MS } from '../payouts/index.ts';
import { walletOf } from '../wallet/index.ts';
import { withdraw } from '../withdrawal/index.ts';

const TEXTS = {
  closed: { ru: 'Кошелёк закрыт', en: 'The wallet is closed' },
  sms: {
    ru: 'E-Wallet: ваш кошелёк закрыт. Остаток в рублях выплачивается на указанную карту. Если это были не вы, обратитесь в поддержку.',
    en: 'E-Wallet: your wallet is closed. The roubles left are being paid out to the card given. If it was not you, contact support.',
  },
  operations: {
    payout: { ru: 'вывод на карту', en: 'a payout to a card' },
    topup: { ru: 'пополнение', en: 'a top-up' },
    held: {
      ru: 'операция на проверке или ждёт одобрения доверенного лица',
      en: 'an operation on hold or awaiting your trusted person’s approval',
    },
  },
} as const;

interface ClosingState {
  phone: string;
  level: LevelName;
  frozenBy: string | null;
  accounts: { currency_code: string; balance: string }[];
  payouts: number;
  topUps: number;
  /** Held operations and those awaiting the trusted person (docs/decisions/antifraud-paths.md). */
  holds: number;
  /** The person's merchant holds money, or has a settlement on its way (docs/decisions/merchants.md#settlement). */
  merchantMoney: boolean;
  trusted: boolean;
  schedules: number;
  requests: number;
  /**
   * Savings goals still holding money
   * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
   */
  goals: number;
}

async function stateOf(q: Queryable, userId: string, at: Date): Promise<ClosingState> {
  const { rows } = await q.query<{
    phone: string;
    identification_level: LevelName;
    frozen_by: string | null;
    closed_at: Date | null;
    payouts: number;
    top_ups: number;
    holds: number;
    merchant_money: boolean;
    schedules: number;
    requests: number;
  }>(
    `SELECT u.phone, u.identification_level, u.frozen_by, u.closed_at,
       (SELECT count(*)::integer FROM payouts p WHERE p.user_id = u.id AND p.status IN ('created', 'pending')) AS payouts,
       (SELECT count(*)::integer FROM topup_orders o WHERE o.user_id = u.id AND o.status = 'pending') AS top_ups,
       (SELECT count(*)::integer FROM money_holds h
         WHERE h.user_id = u.id AND h.status IN ('held', 'awaiting_approval', 'releasing')) AS holds,
       ${MERCHANT_MONEY} AS merchant_money,
       (SELECT count(*)::integer FROM scheduled_transfers s
         WHERE s.user_id = u.id AND s.status IN ('active', 'paused')) AS schedules,
       (SELECT count(*)::integer FROM payment_requests r
         WHERE (r.requester_id = u.id OR r.payer_id = u.id) AND r.status = 'pending') AS requests
     FROM users u WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row || row.closed_at) throw new AppError('INVALID_TOKEN');
  const wallet = await walletOf(q, userId);
  return {
    phone: row.phone,
    level: row.identification_level,
    frozenBy: row.frozen_by,
    accounts: (wallet.results[0]?.accounts ?? []).map((a) => ({
      currency_code: a.currency_code,
      balance: a.balance,
    })),
    payouts: row.payouts,
    topUps: row.top_ups,
    holds: row.holds,
    merchantMoney: row.merchant_money,
    trusted: await trustedPersonInForce(q, userId, at),
    schedules: row.schedules,
    requests: row.requests,
    goals: await goalsHoldingMoney(q, userId),
  };
}

/** Whether the person's merchant (docs/decisions/merchants.md#settlement) holds money or is paying it out. */
const MERCHANT_MONEY = `EXISTS (SELECT 1 FROM merchants m JOIN ledger_accounts a ON a.id = m.account_id
  WHERE m.user_id = u.id AND (a.balance <> 0 OR a.pending_debits <> 0))`;

const isZero = (balance: string) => /^-?0+(\.0+)?$/.test(balance);

/** What refuses closing now, in the order a person would mend it. */
function problemsOf(ctx: AppContext, state: ClosingState, language: Language): AppError[] {
  const problems: AppError[] = [];
  if (state.frozenBy === 'operator') problems.push(new AppError('WALLET_CLOSE_FROZEN'));
  const inProgress = [
    ...(state.payouts > 0 ? [TEXTS.operations.payout[language]] : []),
    ...(state.topUps > 0 ? [TEXTS.operations.topup[language]] : []),
    ...(state.holds > 0 ? [TEXTS.operations.held[language]] : []),
  ];
  if (inProgress.length > 0)
    problems.push(new AppError('WALLET_CLOSE_PENDING', { operations: inProgress.join(', ') }));
  // A merchant's money leaves only by its settlement, which a closed wallet can no longer make.
  if (state.merchantMoney) problems.push(new AppError('WALLET_CLOSE_MERCHANT'));
  // A goal's money returns to the account when the goal is deleted; then it leaves with the rest.
  if (state.goals > 0) problems.push(new AppError('WALLET_CLOSE_GOALS'));
  const foreign = state.accounts.filter((a) => a.currency_code !== 'RUB' && !isZero(a.balance));
  if (foreign.length > 0)
    problems.push(
      new AppError('WALLET_CLOSE_CURRENCIES', {
        balances: foreign.map((a) => formatMoney(a.balance, a.currency_code, language)).join(', '),
      }),
    );
  const roubles = state.accounts.find((a) => a.currency_code === 'RUB');
  if (roubles && !isZero(roubles.balance) && !ctx.config.levels[state.level].withdrawal)
    problems.push(new AppError('WALLET_CLOSE_IDENTIFY'));
  // The balance leaving at closing is an outgoing payment: the trusted person would have to approve it.
  if (roubles && !isZero(roubles.balance) && state.trusted)
    problems.push(new AppError('WALLET_CLOSE_TRUSTED'));
  return problems;
}

export async function closePreview(
  ctx: AppContext,
  userId: string,
  language: Language,
): Promise<AnswerOf<'closePreview'>> {
  const state = await stateOf(ctx.db, userId, ctx.clock.now());
  return {
    accounts: state.accounts.map((a) => ({
      currency_code: a.currency_code as AnswerOf<'closePreview'>['accounts'][number]['currency_code'],
      balance: a.balance,
      outcome: isZero(a.balance) ? 'none' : a.currency_code === 'RUB' ? 'payout' : 'exchange_first',
    })),
    problems: problemsOf(ctx, state, language).map((e) => ({
      code: e.code,
      message: errorMessage(e.code, language, e.params),
    })),
    active_schedules: state.schedules,
    pending_requests: state.requests,
    needs_card: state.accounts.some((a) => a.currency_code === 'RUB' && !isZero(a.balance)),
  };
}

/** Where a withdrawal of the balance would wait, closing is refused, saying what to do instead. */
function cannotWait(verdict: HoldVerdict, language: Language): AppError {
  if (verdict.status === 'awaiting_approval') return new AppError('WALLET_CLOSE_TRUSTED');
  return new AppError('WALLET_CLOSE_CHECK', { reason: reasonText(verdict.reasons, language) });
}

export async function closeWallet(
  ctx: AppContext,
  session: SessionRef,
  body: BodyOut<'closeWallet'>,
  language: Language,
): Promise<AnswerOf<'closeWallet'>> {
  const { userId } = session;
  const state = await stateOf(ctx.db, userId, ctx.clock.now());
  const problem = problemsOf(ctx, state, language)[0];
  if (problem) throw problem;
  const roubles = state.accounts.find((a) => a.currency_code === 'RUB' && !isZero(a.balance));
  const card = roubles ? normalizeCardNumber(body.pan ?? '') : null;
  if (roubles && !body.pan) throw new AppError('FIELD_REQUIRED', { field: 'pan' });
  if (roubles && !card) throw new AppError('CARD_INVALID');
  // The PIN before the code: its errors are counted by its own guard, and a wrong one spends no code.
  if (body.pin !== undefined) await checkPin(ctx, userId, body.pin);
  const wrongCode = await ctx.db.tx(async (q) => {
    await lockPhone(q, state.phone);
    return verifyCode(q, ctx, {
      phone: state.phone,
      code: body.confirm_code,
      binding: { step: 'close_wallet' },
    });
  });
  if (wrongCode) {
    if (wrongCode.justLocked) await sendNotice(ctx, state.phone, message('smsCodesLocked', language));
    throw new AppError(wrongCode.code, wrongCode.params ?? {});
  }
  let payout: AnswerOf<'closeWallet'>['payout'] = null;
  if (roubles && card) {
    // The one payout path (docs/decisions/account.md#a-persons-account): the money leaves as a withdrawal
    // does, confirmed by the same PIN or passkey, under one key per wallet so a retry pays out once.
    await withdraw(
      ctx,
      userId,
      {
        amount: roubles.balance,
        currency_code: 'RUB',
        pan: card,
        ...(body.pin !== undefined ? { pin: body.pin } : {}),
        ...(body.passkey !== undefined ? { passkey: body.passkey } : {}),
      },
      {
        idempotencyKey: `close-wallet:${userId}`,
        language,
        sessionId: session.sessionId,
        closing: { cannotWait: (verdict) => cannotWait(verdict, language) },
      },
    );
    payout = {
      amount: roubles.balance,
      currency_code: 'RUB',
      card: maskCard(card),
      expected_by: new Date(ctx.clock.now().getTime() + PAYOUT_STUCK_AFTER_MS).toISOString(),
    };
  } else if (body.passkey !== undefined) {
    await verifyPasskey(ctx, userId, body.passkey);
  }
  await ctx.db.tx(async (q) => {
    const now = ctx.clock.now();
    // Asked again under the person's lock: nothing held or awaiting approval is left behind a closed wallet.
    await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows: open } = await q.query<{ holds: number }>(
      `SELECT count(*)::integer AS holds FROM money_holds
       WHERE user_id = $1 AND status IN ('held', 'awaiting_approval', 'releasing')`,
      [userId],
    );
    if (open[0]!.holds > 0)
      throw new AppError('WALLET_CLOSE_PENDING', { operations: TEXTS.operations.held[language] });
    // The merchant's account locked as a payment into it locks it: none lands after this reads it empty.
    const { rows: merchant } = await q.query<{ money: boolean }>(
      `SELECT a.balance <> 0 OR a.pending_debits <> 0 AS money FROM merchants m
       JOIN ledger_accounts a ON a.id = m.account_id WHERE m.user_id = $1 FOR UPDATE OF a`,
      [userId],
    );
    if (merchant[0]?.money) throw new AppError('WALLET_CLOSE_MERCHANT');
    await q.query(
      `UPDATE users SET closed_at = $2, closed_phone = phone, phone = 'closed:' || id::text WHERE id = $1`,
      [userId, now],
    );
    await q.query(
      `UPDATE scheduled_transfers SET status = 'ended', next_run_at = NULL
       WHERE (user_id = $1 OR payee_id = $1) AND status IN ('active', 'paused')`,
      [userId],
    );
    await q.query(
      `UPDATE payment_requests SET status = 'cancelled', closed_at = $2 WHERE requester_id = $1 AND status = 'pending'`,
      [userId, now],
    );
    await q.query(
      `UPDATE payment_requests SET status = 'declined', closed_at = $2 WHERE payer_id = $1 AND status = 'pending'`,
      [userId, now],
    );
    // A closed wallet approves nothing: the roles it held end, and its own trusted person is told.
    await endTrustedRoles(q, userId, 'closed', now);
    await endOwnTrustedPerson(q, userId, now);
    await q.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
    // The merchant's keys end with the wallet, as its sessions do: its API takes nothing more.
    await q.query(
      `UPDATE merchant_keys SET revoked_at = $2
       WHERE merchant_id IN (SELECT id FROM merchants WHERE user_id = $1) AND revoked_at IS NULL`,
      [userId, now],
    );
    await q.query('DELETE FROM push_subscriptions WHERE user_id = $1', [userId]);
    await revokeAllSessions(q, userId, now);
  });
  await sendNotice(ctx, state.phone, TEXTS.sms[language]);
  return { status: 'success', message: TEXTS.closed[language], payout };
}
