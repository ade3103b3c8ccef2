/**
 * Changes of how money is confirmed or where alerts go
 * (docs/decisions/security-rules.md#hardening-third-round): a session alone never makes one. The person
 * proves it is them with the PIN or a fresh SMS code to their own phone (`proveOwner`), and every such change
 * is told at once outside the app, by SMS and by push, and its time kept for the antifraud checks
 * (`securityChanged`).
 *
 *   proveOwner(ctx, userId, {pin} | {confirm_code}, language)   before the change
 *   securityChanged(ctx, userId, kind, proof, language)          after it
 */
import type { Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { notify } from '../notifications/index.ts';
import { lockPhone, verifyCode } from './codes.ts';
import { message } from './messages.ts';
import { checkPin } from './pin.ts';
import { sendNotice } from './service.ts';

export type OwnerProof = { pin?: string | undefined; confirm_code?: string | undefined };
export type ProofKind = 'pin' | 'sms_code' | 'session';
export type SecurityChange =
  | 'passkey_added'
  | 'passkey_removed'
  | 'pin_changed'
  | 'push_added'
  | 'alerts_reduced'
  // Where a merchant's settlements go (docs/decisions/merchants.md#settlement).
  | 'settlement_account_changed';

/**
 * The PIN (counted by its own guard, as for money) or the live SMS code of the person's own phone
 * (asked with send_code; counted as every code is). Answers which one proved it.
 */
export async function proveOwner(
  ctx: AppContext,
  userId: string,
  proof: OwnerProof,
  language: Language,
): Promise<ProofKind> {
  if (proof.pin !== undefined) {
    await checkPin(ctx, userId, proof.pin);
    return 'pin';
  }
  const code = proof.confirm_code;
  if (code === undefined)
    throw new AppError('FIELD_REQUIRED', { field: language === 'en' ? 'PIN' : 'PIN-код' });
  const refusal = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ phone: string }>('SELECT phone FROM users WHERE id = $1', [userId]);
    const phone = rows[0]?.phone;
    if (!phone) return { error: new AppError('INVALID_TOKEN') };
    await lockPhone(q, phone);
    // A wrong code is counted: this transaction commits and the error is answered after it.
    const wrong = await verifyCode(q, ctx, { phone, code });
    return wrong
      ? { error: new AppError(wrong.code, wrong.params ?? {}), phone, locked: wrong.justLocked }
      : null;
  });
  if (refusal) {
    if (refusal.locked && refusal.phone)
      await sendNotice(ctx, refusal.phone, message('smsCodesLocked', language));
    throw refusal.error;
  }
  return 'sms_code';
}

/**
 * Records a change and tells the person: `users.security_changed_at` and a `security_changes` row
 * (what the antifraud checks read), a security notification (the bell and, through its trigger, a
 * push to the person's devices) and an SMS to the phone, with no code.
 */
export async function securityChanged(
  ctx: AppContext,
  userId: string,
  kind: SecurityChange,
  proof: ProofKind,
  language: Language,
): Promise<void> {
  const now = ctx.clock.now();
  const phone = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ phone: string }>(
      'UPDATE users SET security_changed_at = $2 WHERE id = $1 RETURNING phone',
      [userId, now],
    );
    await q.query('INSERT INTO security_changes (user_id, kind, proof, created_at) VALUES ($1, $2, $3, $4)', [
      userId,
      kind,
      proof,
      now,
    ]);
    await notify(q, userId, 'security', `security_${kind}`, {}, now);
    return rows[0]?.phone;
  });
  if (phone) await sendNotice(ctx, phone, message(`sms_${kind}`, language));
}
