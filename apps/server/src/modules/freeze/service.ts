/**
 * Self-protection (docs/decisions/account.md#self-protection-and-the-answers-before-the-pin): a person stops
 * their own wallet in one tap.
 *
 *   freezeWallet(ctx, session)             every outgoing operation refused (the ledger's payment door
 *                                          answers WALLET_FROZEN), every other session ended, a notice
 *   unfreezeWallet(ctx, session, body)     a fresh SMS code to the person's phone (send_code) and the PIN;
 *                                          every other session ends (a recovery step)
 *   reportOperation(ctx, session, id, body) 'Это не я' on one of the person's outgoing operations: the
 *                                          report is kept for the operators and the wallet frozen
 * Money still comes in while frozen. A freeze made by an operator is lifted only by an operator.
 */
import { ID_PATTERN, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { revokeAllSessions, type SessionRef } from '../../sessions/tokens.ts';
import { endTrustedRoles } from '../antifraud/index.ts';
import { checkPin, lockPhone, message, sendNotice, verifyCode } from '../auth/index.ts';
import { notify } from '../notifications/index.ts';
import { suspendPasskeys } from '../passkeys/index.ts';
import { suspendSubscriptions } from '../push/index.ts';

const TEXTS = {
  frozen: { ru: 'Кошелёк заблокирован', en: 'The wallet is frozen' },
  unfrozen: { ru: 'Кошелёк разблокирован', en: 'The wallet is unfrozen' },
  reported: {
    ru: 'Спасибо, мы проверим операцию. Кошелёк заблокирован',
    en: 'Thank you, we will look into the operation. The wallet is frozen',
  },
} satisfies Record<string, Record<Language, string>>;

/**
 * Recovery removes what a thief added (docs/decisions/recovery-and-four-eyes.md): whoever froze, every
 * passkey and push subscription is suspended, since none can be told from a thief's at the freeze; the
 * owner keeps theirs after unfreezing (Settings lists them with their dates and devices).
 */
async function suspendWaysIn(q: Queryable, userId: string, at: Date): Promise<void> {
  await suspendPasskeys(q, userId, at);
  await suspendSubscriptions(q, userId, at);
}

/** Freezes in the caller's transaction; false when the wallet was frozen already. */
async function freezeIn(q: Queryable, ctx: AppContext, session: SessionRef): Promise<boolean> {
  const now = ctx.clock.now();
  const { rowCount } = await q.query(
    `UPDATE users SET frozen_at = $2, frozen_by = 'self' WHERE id = $1 AND frozen_at IS NULL`,
    [session.userId, now],
  );
  if (rowCount === 0) return false;
  await suspendWaysIn(q, session.userId, now);
  await revokeAllSessions(q, session.userId, now, session.sessionId);
  await notify(q, session.userId, 'security', 'wallet_frozen', {}, now);
  // A frozen wallet may be in a thief's hands: it approves nobody's operations any more.
  await endTrustedRoles(q, session.userId, 'frozen', now);
  return true;
}

export async function freezeWallet(
  ctx: AppContext,
  session: SessionRef,
  language: Language,
): Promise<{ status: 'success'; message: string }> {
  await ctx.db.tx((q) => freezeIn(q, ctx, session));
  return { status: 'success', message: TEXTS.frozen[language] };
}

export async function unfreezeWallet(
  ctx: AppContext,
  session: SessionRef,
  body: { confirm_code: string; pin: string },
  language: Language,
): Promise<{ status: 'success'; message: string }> {
  // The PIN first: its errors are counted by its own guard, whatever the code.
  await checkPin(ctx, session.userId, body.pin);
  const outcome = await ctx.db.tx(
    async (q): Promise<{ error: AppError; phone?: string; locked?: boolean } | null> => {
      const { rows } = await q.query<{ phone: string; frozen_by: string | null }>(
        'SELECT phone, frozen_by FROM users WHERE id = $1 FOR UPDATE',
        [session.userId],
      );
      const user = rows[0];
      if (!user) return { error: new AppError('INVALID_TOKEN') };
      if (user.frozen_by === null) return { error: new AppError('WALLET_NOT_FROZEN') };
      // An operator's freeze (anti-money-laundering) is lifted by an operator only.
      if (user.frozen_by !== 'self') return { error: new AppError('WALLET_FROZEN') };
      await lockPhone(q, user.phone);
      const wrong = await verifyCode(q, ctx, {
        phone: user.phone,
        code: body.confirm_code,
        binding: { step: 'unfreeze' },
      });
      // A wrong code is counted: the transaction commits and the error is answered after it.
      if (wrong)
        return {
          error: new AppError(wrong.code, wrong.params ?? {}),
          phone: user.phone,
          locked: wrong.justLocked,
        };
      await q.query('UPDATE users SET frozen_at = NULL, frozen_by = NULL WHERE id = $1', [session.userId]);
      // A recovery step: a session a thief still holds ends here, whatever it did before the freeze.
      await revokeAllSessions(q, session.userId, ctx.clock.now(), session.sessionId);
      await notify(q, session.userId, 'security', 'wallet_unfrozen', {}, ctx.clock.now());
      return null;
    },
  );
  if (outcome) {
    if (outcome.locked && outcome.phone)
      await sendNotice(ctx, outcome.phone, message('smsCodesLocked', language));
    throw outcome.error;
  }
  return { status: 'success', message: TEXTS.unfrozen[language] };
}

export async function reportOperation(
  ctx: AppContext,
  session: SessionRef,
  transferId: string,
  body: { reason: string },
  language: Language,
): Promise<{ status: 'success'; message: string }> {
  if (!ID_PATTERN.test(transferId)) throw new AppError('OPERATION_NOT_FOUND');
  await ctx.db.tx(async (q) => {
    // Only the person's own outgoing operations: anyone else's is as absent as a missing one.
    const { rows } = await q.query(
      `SELECT 1 FROM ledger_entries e
       WHERE e.transfer_id = $1 AND e.user_id = $2 AND e.amount < 0 AND e.phase IN ('single', 'hold')`,
      [transferId, session.userId],
    );
    if (rows.length === 0) throw new AppError('OPERATION_NOT_FOUND');
    await q.query(
      `INSERT INTO operation_reports (user_id, transfer_id, reason, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, transfer_id) DO NOTHING`,
      [session.userId, transferId, body.reason, ctx.clock.now()],
    );
    await freezeIn(q, ctx, session);
  });
  return { status: 'success', message: TEXTS.reported[language] };
}

/**
 * An operator's freeze (docs/decisions/back-office.md#the-operators-back-office): outgoing operations are
 * refused as WALLET_FROZEN and only an operator lifts it. A wallet the person froze becomes the operator's.
 * The person is notified; their sessions stay, so they can read why and reach support. Answers who had frozen
 * it before (null: it was not frozen).
 */
export async function operatorFreeze(
  q: Queryable,
  ctx: AppContext,
  userId: string,
): Promise<{ before: 'self' | 'operator' | null }> {
  const { rows } = await q.query<{ frozen_by: 'self' | 'operator' | null }>(
    'SELECT frozen_by FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!rows[0]) throw new AppError('USER_NOT_FOUND');
  const before = rows[0].frozen_by;
  if (before === 'operator') return { before };
  const now = ctx.clock.now();
  await q.query(
    `UPDATE users SET frozen_at = coalesce(frozen_at, $2), frozen_by = 'operator' WHERE id = $1`,
    [userId, now],
  );
  await suspendWaysIn(q, userId, now);
  if (before === null) await notify(q, userId, 'security', 'wallet_frozen_by_operator', {}, now);
  await endTrustedRoles(q, userId, 'frozen', now);
  return { before };
}

/**
 * Lifts any freeze, the person's or an operator's; WALLET_NOT_FROZEN when there is none. A recovery
 * step: every session of the person ends, so the owner signs in afresh with an SMS code.
 */
export async function operatorUnfreeze(
  q: Queryable,
  ctx: AppContext,
  userId: string,
): Promise<{ before: 'self' | 'operator' }> {
  const { rows } = await q.query<{ frozen_by: 'self' | 'operator' | null }>(
    'SELECT frozen_by FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!rows[0]) throw new AppError('USER_NOT_FOUND');
  const before = rows[0].frozen_by;
  if (before === null) throw new AppError('WALLET_NOT_FROZEN');
  await q.query('UPDATE users SET frozen_at = NULL, frozen_by = NULL WHERE id = $1', [userId]);
  await revokeAllSessions(q, userId, ctx.clock.now());
  await notify(q, userId, 'security', 'wallet_unfrozen', {}, ctx.clock.now());
  return { before };
}
