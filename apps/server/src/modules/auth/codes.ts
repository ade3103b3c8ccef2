/**
 * SMS codes (docs/decisions/security-rules.md#security-baselines): four digits from a CSPRNG, valid 5
 * minutes, dead after 5 wrong tries, a new one not before 60 s, at most 5 per phone per hour and a cap per
 * client address. Across all of a phone's codes at most 10 wrong ones count in any 24 hours: then the
 * phone's codes are refused until the oldest leaves the window, so a guess succeeds with at most
 * 10 / 10,000 = 0.1% a day (docs/security.md). Only an HMAC of the code is stored; never logged.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { ErrorCode, Language } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { revokeAllSessions } from '../../sessions/tokens.ts';
import { addressKey, hit, peek } from '../limits/index.ts';
import { type CodeConfirms, codeText } from './code-texts.ts';

export const CODE_TTL_MS = 5 * 60_000;
export const CODE_MAX_TRIES = 5;
export const RESEND_AFTER_SECONDS = 60;
export const SENDS_PER_PHONE_PER_HOUR = 5;
export const WRONG_CODES_PER_PHONE_PER_DAY = 10;
const HOUR_SECONDS = 3600;
const DAY_SECONDS = 24 * HOUR_SECONDS;
const wrongCodesKey = (phone: string) => `code-wrong:phone:${phone}`;

/** 'step': a code sent for a step beyond signing in, which confirms only that step (`CodeBinding`). */
export type CodePurpose = 'register' | 'login' | 'step';

/**
 * What a code sent for a step beyond signing in confirms, as its SMS says: lifting one's own freeze,
 * closing the wallet, or one held operation. It confirms nothing else, and no other code confirms it.
 */
export type CodeBinding = { step: 'unfreeze' | 'close_wallet' } | { hold: string };

/** The key of the codes' HMAC, derived from the server secret PIN_KEY (never in the database). */
function codeKey(config: Config): Buffer {
  return createHmac('sha256', config.PIN_KEY).update('e-wallet/sms-code/v1').digest();
}

/**
 * The code's keyed hash. The purpose is not part of it: a phone has one live code, and every call
 * that checks a code counts a wrong one the same way whichever call it was sent for, so the answers
 * never depend on whether the number has a wallet. What a right code may complete is decided by
 * the caller (a sign-in for a registered phone, a registration for the data it was sent for).
 */
export function hashCode(config: Config, phone: string, code: string): Buffer {
  return createHmac('sha256', codeKey(config)).update(`code\n${phone}\n${code}`).digest();
}

/**
 * A digest of a registration's data (names and e-mail). Stored with the code that is sent for it,
 * so a code confirms only the data it was sent for: data changed afterwards needs a new code.
 */
export function registrationDigest(
  config: Config,
  data: { first_name: string; last_name: string; email: string },
): Buffer {
  return createHmac('sha256', codeKey(config))
    .update(JSON.stringify(['registration', data.first_name, data.last_name, data.email]))
    .digest();
}

/** The digest stored with a bound code (as a registration's data digest is stored with its code). */
export function bindingDigest(config: Config, binding: CodeBinding): Buffer {
  const what = 'step' in binding ? binding.step : `hold:${binding.hold}`;
  return createHmac('sha256', codeKey(config))
    .update(JSON.stringify(['binding', what]))
    .digest();
}

/** CODE_LOCKED with its hours when the phone has had its wrong codes for the day; null otherwise. */
export async function codeLock(
  q: Queryable,
  ctx: AppContext,
  phone: string,
): Promise<{ code: 'CODE_LOCKED'; params: { hours: number } } | null> {
  const seen = await peek(q, wrongCodesKey(phone), DAY_SECONDS, ctx.clock.now());
  if (seen.count < WRONG_CODES_PER_PHONE_PER_DAY) return null;
  return {
    code: 'CODE_LOCKED',
    params: { hours: Math.max(1, Math.ceil(seen.oldestLeavesInSeconds / 3600)) },
  };
}

/**
 * The phone's wrong codes of the last 24 hours are forgotten (support, after the owner proved who they
 * are). A recovery step: every session of the phone's wallet ends, so only the owner's next sign-in holds one.
 */
export async function clearCodeLock(q: Queryable, phone: string, now: Date): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM rate_limits WHERE key = $1', [wrongCodesKey(phone)]);
  const { rows } = await q.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [phone]);
  if (rows[0]) await revokeAllSessions(q, rows[0].id, now);
  return rowCount > 0;
}

/**
 * Serialises everything about one phone's codes and registration across instances until the
 * transaction ends (PGlite is one session, so there it is a no-op that always succeeds).
 */
export async function lockPhone(q: Queryable, phone: string): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`auth-phone:${phone}`]);
}

/**
 * Seconds until a new code may be sent, when a usable code went out less than
 * RESEND_AFTER_SECONDS ago (not dead, not expired), 0 otherwise; and the data digest it was sent for.
 */
export async function recentCodeWait(
  q: Queryable,
  ctx: AppContext,
  phone: string,
): Promise<{ wait: number; digest: Buffer | null }> {
  const now = ctx.clock.now();
  const { rows } = await q.query<{ sent_at: Date; data_digest: Buffer | null }>(
    `SELECT sent_at, data_digest FROM auth_codes
     WHERE phone = $1 AND failed_tries < $2 AND expires_at > $3`,
    [phone, CODE_MAX_TRIES, now],
  );
  const row = rows[0];
  if (!row) return { wait: 0, digest: null };
  const waitMs = row.sent_at.getTime() + RESEND_AFTER_SECONDS * 1000 - now.getTime();
  return {
    wait: waitMs > 0 ? Math.ceil(waitMs / 1000) : 0,
    digest: row.data_digest ? Buffer.from(row.data_digest) : null,
  };
}

/**
 * Sign-in's guard by client address, before anything about a phone is read or counted: an address
 * checks at most CODE_CHECKS_PER_ADDRESS_PER_HOUR codes an hour (by default the tries of every code
 * it may be sent), the same RATE_LIMITED whether the phone has a wallet or not. So one address cannot walk many phones'
 * codes, nor lock their owners out by spending their wrong-code day, and each refused try costs one
 * statement (docs/decisions/security-rules.md#hardening-third-round). Sessions are never ended by anyone's
 * wrong codes.
 */
export async function guardCodeCheck(ctx: AppContext, ip: string): Promise<void> {
  const cap = ctx.config.CODE_CHECKS_PER_ADDRESS_PER_HOUR;
  const byAddress = await hit(ctx.db, `codes:address:${addressKey(ip)}`, HOUR_SECONDS, cap, ctx.clock.now());
  if (!byAddress.allowed) throw new AppError('RATE_LIMITED');
}

/**
 * Checks the resend cooldown and the hourly caps, then stores a fresh code for the phone in place
 * of any earlier one. Call inside a transaction holding lockPhone; deliver the answered code only
 * after the transaction commits (the transaction may be retried; an SMS cannot be taken back).
 */
export async function issueCode(
  q: Queryable,
  ctx: AppContext,
  input: {
    phone: string;
    purpose: CodePurpose;
    ip: string;
    dataDigest?: Buffer | null;
    binding?: CodeBinding;
  },
): Promise<{ code: string }> {
  const now = ctx.clock.now();
  const locked = await codeLock(q, ctx, input.phone);
  if (locked) throw new AppError(locked.code, locked.params);
  const previous = await q.query<{ sent_at: Date }>('SELECT sent_at FROM auth_codes WHERE phone = $1', [
    input.phone,
  ]);
  const sentAt = previous.rows[0]?.sent_at;
  if (sentAt) {
    const waitMs = sentAt.getTime() + RESEND_AFTER_SECONDS * 1000 - now.getTime();
    if (waitMs > 0) throw new AppError('CODE_RESEND_TOO_SOON', { seconds: Math.ceil(waitMs / 1000) });
  }
  const byAddress = await hit(
    q,
    `sms:address:${addressKey(input.ip)}`,
    HOUR_SECONDS,
    ctx.config.SMS_PER_ADDRESS_PER_HOUR,
    now,
  );
  if (!byAddress.allowed) throw new AppError('SMS_LIMIT_ADDRESS');
  const byPhone = await hit(q, `sms:phone:${input.phone}`, HOUR_SECONDS, SENDS_PER_PHONE_PER_HOUR, now);
  if (!byPhone.allowed) throw new AppError('SMS_LIMIT_PHONE');

  const code = String(randomInt(0, 10_000)).padStart(4, '0');
  await q.query(
    `INSERT INTO auth_codes (phone, purpose, code_hash, sent_at, expires_at, failed_tries, data_digest)
     VALUES ($1, $2, $3, $4, $5, 0, $6)
     ON CONFLICT (phone) DO UPDATE SET purpose = EXCLUDED.purpose, code_hash = EXCLUDED.code_hash,
       sent_at = EXCLUDED.sent_at, expires_at = EXCLUDED.expires_at, failed_tries = 0,
       data_digest = EXCLUDED.data_digest`,
    [
      input.phone,
      input.binding ? 'step' : input.purpose,
      hashCode(ctx.config, input.phone, code),
      now,
      new Date(now.getTime() + CODE_TTL_MS),
      input.binding ? bindingDigest(ctx.config, input.binding) : (input.dataDigest ?? null),
    ],
  );
  return { code };
}

/**
 * Sends a stored code by SMS in the person's language, saying what it confirms. If the gateway
 * fails, the code is withdrawn.
 */
export async function deliverCode(
  ctx: AppContext,
  input: { phone: string; confirms: CodeConfirms; code: string; language: Language },
): Promise<void> {
  try {
    await ctx.sms.send({
      phone: input.phone,
      text: codeText(input.code, input.confirms, input.language),
      code: input.code,
    });
  } catch (error) {
    // Never log the code or the text: only the provider's failure.
    const reason = error instanceof Error ? error.name : 'unknown';
    await ctx.db
      .query('DELETE FROM auth_codes WHERE phone = $1 AND code_hash = $2', [
        input.phone,
        hashCode(ctx.config, input.phone, input.code),
      ])
      .catch(() => {});
    throw new AppError('PROVIDER_UNAVAILABLE', {}, `sms provider ${ctx.sms.id} failed: ${reason}`);
  }
}

export interface CodeRefusal {
  code: ErrorCode;
  params?: Record<string, string | number>;
  /** This wrong code was the phone's last allowed one of the day: tell the owner. */
  justLocked?: boolean;
}

/**
 * Checks a code inside a transaction holding lockPhone. A correct code is used up. A wrong one
 * counts a try on the code and one of the phone's day, so the caller must commit before
 * answering the error (return, do not throw). With `dataDigest`, the code must have been sent
 * for exactly that data; with `binding`, for exactly that step; without either, a bound code is
 * refused as a wrong one (a code sent to close the wallet never signs anyone in).
 */
export async function verifyCode(
  q: Queryable,
  ctx: AppContext,
  input: { phone: string; code: string; dataDigest?: Buffer; binding?: CodeBinding },
): Promise<CodeRefusal | null> {
  const now = ctx.clock.now();
  const locked = await codeLock(q, ctx, input.phone);
  if (locked) return locked;
  const { rows } = await q.query<{
    purpose: CodePurpose;
    code_hash: Buffer;
    expires_at: Date;
    failed_tries: number;
    data_digest: Buffer | null;
  }>(
    'SELECT purpose, code_hash, expires_at, failed_tries, data_digest FROM auth_codes WHERE phone = $1 FOR UPDATE',
    [input.phone],
  );
  const stored = rows[0];
  if (!stored) return { code: 'CODE_INVALID' };
  if (stored.failed_tries >= CODE_MAX_TRIES) return { code: 'CODE_TRIES_EXCEEDED' };
  if (stored.expires_at.getTime() <= now.getTime()) return { code: 'CODE_EXPIRED' };
  const given = hashCode(ctx.config, input.phone, input.code);
  const storedHash = Buffer.from(stored.code_hash);
  const expected = input.binding ? bindingDigest(ctx.config, input.binding) : input.dataDigest;
  const sameData = expected
    ? stored.data_digest !== null && Buffer.from(stored.data_digest).equals(expected)
    : stored.purpose !== 'step';
  if (storedHash.length === given.length && timingSafeEqual(storedHash, given) && sameData) {
    await q.query('DELETE FROM auth_codes WHERE phone = $1', [input.phone]);
    return null;
  }
  const tries = stored.failed_tries + 1;
  await q.query('UPDATE auth_codes SET failed_tries = $2 WHERE phone = $1', [input.phone, tries]);
  const day = await hit(q, wrongCodesKey(input.phone), DAY_SECONDS, WRONG_CODES_PER_PHONE_PER_DAY, now);
  if (!day.allowed || day.count >= WRONG_CODES_PER_PHONE_PER_DAY) {
    const lock = await codeLock(q, ctx, input.phone);
    return { code: 'CODE_LOCKED', params: lock?.params ?? { hours: 24 }, justLocked: day.allowed };
  }
  return { code: tries >= CODE_MAX_TRIES ? 'CODE_TRIES_EXCEEDED' : 'CODE_INVALID' };
}
