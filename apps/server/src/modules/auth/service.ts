/**
 * Sign-up and sign-in: a registration waits for its SMS code, the confirmed phone becomes a user
 * with a session; a registered phone signs in with a fresh code. Every step about one phone runs
 * in one transaction holding that phone's lock, so two instances cannot both act on it at once.
 */
import { type AnswerOf, ID_PATTERN, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { PG, pgCode, type Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { openAccount } from '../../ledger/index.ts';
import {
  createSession,
  revokeAllSessions,
  revokeSession,
  SESSION_IDLE_DAYS,
  type SessionRef,
} from '../../sessions/tokens.ts';
import { deviceName, notifyNewDevice, notifyRegistration } from '../notifications/index.ts';
import { checkTermsVersion, recordAcceptance } from '../terms/index.ts';
import type { CodeAction, CodeForMoney } from './code-texts.ts';
import {
  type CodePurpose,
  type CodeRefusal,
  deliverCode,
  guardCodeCheck,
  issueCode,
  lockPhone,
  RESEND_AFTER_SECONDS,
  recentCodeWait,
  registrationDigest,
  verifyCode,
} from './codes.ts';
import { message } from './messages.ts';
import { maybeSweep } from './sweep.ts';

export interface ClientMeta {
  ip: string;
  userAgent: string;
  language: Language;
}

export interface Registration {
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  /** The terms the person read and accepted on step 1 (docs/decisions/account.md#a-persons-account). */
  terms_version?: string;
}

async function userIdByPhone(q: Queryable, phone: string): Promise<string | null> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [phone]);
  return rows[0]?.id ?? null;
}

/** The data digest of the latest registration started for a phone (any phone, with a wallet or not). */
async function registrationAttempt(q: Queryable, phone: string): Promise<Buffer | null> {
  const { rows } = await q.query<{ data_digest: Buffer }>(
    'SELECT data_digest FROM registration_attempts WHERE phone = $1',
    [phone],
  );
  return rows[0] ? Buffer.from(rows[0].data_digest) : null;
}

interface PendingRegistration {
  first_name: string;
  last_name: string;
  email: string;
  terms_version: string | null;
  terms_accepted_at: Date | null;
}

async function pendingRegistration(
  q: Queryable,
  phone: string,
  forUpdate = false,
): Promise<PendingRegistration | null> {
  const { rows } = await q.query<PendingRegistration>(
    `SELECT first_name, last_name, email, terms_version, terms_accepted_at
     FROM pending_registrations WHERE phone = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [phone],
  );
  return rows[0] ?? null;
}

function codeSentAnswer(client: ClientMeta, phone: string, resendAfter: number): AnswerOf<'sendCode'> {
  return {
    status: 'success',
    message: message('codeSent', client.language, { phone }),
    resend_after: resendAfter,
  };
}

/** A text to a phone that carries no code (notices to the owner); a failure is logged, never answered. */
export async function sendNotice(ctx: AppContext, phone: string, text: string): Promise<void> {
  await ctx.sms.send({ phone, text, code: '' }).catch(() => {});
}

/**
 * Keeps the person's data until the phone is confirmed and sends the code. Known and unknown
 * phones are answered alike (nobody may learn from it whether a number has a wallet): a registered
 * phone gets a notice instead of a code, and a code row that can confirm nothing, so the cooldown,
 * the caps and the wrong-code counting behave exactly as for a new number.
 * The code is bound to the data it was sent for. Coming back within the resend cooldown with the
 * same data keeps the code just sent (no SMS; resend_after says how long until 'send again'); with
 * other data it is CODE_RESEND_TOO_SOON: data never changes under a code already sent.
 */
export async function register(
  ctx: AppContext,
  registration: Registration,
  client: ClientMeta,
): Promise<AnswerOf<'register'>> {
  const { phone } = registration;
  // Before anything is sent or kept: no registration without the current terms accepted.
  checkTermsVersion(registration.terms_version);
  const digest = registrationDigest(ctx.config, registration);
  const { code, wait, known } = await ctx.db.tx(async (q) => {
    await lockPhone(q, phone);
    const known = (await userIdByPhone(q, phone)) !== null;
    const recent = await recentCodeWait(q, ctx, phone);
    if (recent.wait > 0) {
      if (!recent.digest?.equals(digest))
        throw new AppError('CODE_RESEND_TOO_SOON', { seconds: recent.wait });
      return { code: null, wait: recent.wait, known };
    }
    const issued = await issueCode(q, ctx, { phone, purpose: 'register', ip: client.ip, dataDigest: digest });
    const now = ctx.clock.now();
    // Every phone keeps the attempt's digest; only a phone without a wallet keeps the data.
    await q.query(
      `INSERT INTO registration_attempts (phone, data_digest, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (phone) DO UPDATE SET data_digest = EXCLUDED.data_digest, updated_at = EXCLUDED.updated_at`,
      [phone, digest, now],
    );
    if (!known) {
      await q.query(
        `INSERT INTO pending_registrations
           (phone, first_name, last_name, email, created_at, updated_at, terms_version, terms_accepted_at)
         VALUES ($1, $2, $3, $4, $5, $5, $6, $5)
         ON CONFLICT (phone) DO UPDATE SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
           email = EXCLUDED.email, updated_at = EXCLUDED.updated_at,
           terms_version = EXCLUDED.terms_version, terms_accepted_at = EXCLUDED.terms_accepted_at`,
        [
          phone,
          registration.first_name,
          registration.last_name,
          registration.email,
          now,
          registration.terms_version,
        ],
      );
    }
    return { code: issued.code, wait: RESEND_AFTER_SECONDS, known };
  });
  if (code !== null) {
    if (known) await sendNotice(ctx, phone, message('smsAlreadyRegistered', client.language));
    else await deliverCode(ctx, { phone, confirms: { action: 'register' }, code, language: client.language });
    await maybeSweep(ctx);
  }
  return codeSentAnswer(client, phone, wait);
}

/**
 * A new code for a phone: a sign-in code when it is registered, the registration code again when
 * a registration is waiting (register step 2 'send again'). An unknown phone is answered alike and
 * gets a code row that is never sent, so every later answer about it matches a known phone's.
 */
export async function sendCode(
  ctx: AppContext,
  phone: string,
  client: ClientMeta,
  step?: CodeAction,
): Promise<AnswerOf<'sendCode'>> {
  const { code, known, send } = await ctx.db.tx(async (q) => {
    await lockPhone(q, phone);
    const known = (await userIdByPhone(q, phone)) !== null;
    // A registration started for the number (by anyone) carries on in the new code, for every
    // number alike; a code sent for it still signs a registered owner in.
    const attempt = await registrationAttempt(q, phone);
    const purpose: CodePurpose = attempt ? 'register' : 'login';
    // A wallet's owner asking for a step beyond signing in gets a code for that step only.
    const binding = known && (step === 'unfreeze' || step === 'close_wallet') ? { step } : undefined;
    const issued = await issueCode(q, ctx, { phone, purpose, ip: client.ip, dataDigest: attempt, binding });
    return { code: issued.code, known, send: known || attempt !== null };
  });
  // A wallet's owner reads the step the app asked for (sign-in by default), whatever registration
  // was once started for the number; only a number without a wallet gets a registration's code.
  const action: CodeAction = known ? (step ?? 'sign_in') : 'register';
  if (send) await deliverCode(ctx, { phone, confirms: { action }, code, language: client.language });
  await maybeSweep(ctx);
  return codeSentAnswer(client, phone, RESEND_AFTER_SECONDS);
}

/**
 * A fresh code to a signed-in person's own phone for a held operation, its text naming the amount
 * and the payee; it confirms that operation only. The same cooldown, caps and single live code as every other code of the phone.
 */
export async function sendCodeForMoney(
  ctx: AppContext,
  phone: string,
  client: ClientMeta,
  money: CodeForMoney & { hold: string },
): Promise<AnswerOf<'sendCode'>> {
  const code = await ctx.db.tx(async (q) => {
    await lockPhone(q, phone);
    const binding = { hold: money.hold };
    return (await issueCode(q, ctx, { phone, purpose: 'step', ip: client.ip, binding })).code;
  });
  await deliverCode(ctx, { phone, confirms: { money }, code, language: client.language });
  return codeSentAnswer(client, phone, RESEND_AFTER_SECONDS);
}

type TokenOutcome = { token: string; newDevice?: boolean } | { error: CodeRefusal; notifyOwner?: boolean };

/** Wrong codes are counted in the transaction, which must commit: the error is thrown after it. */
async function tokenAnswer(
  ctx: AppContext,
  phone: string,
  outcome: TokenOutcome,
  text: string,
  client: ClientMeta,
): Promise<AnswerOf<'login'>> {
  if ('error' in outcome) {
    if (outcome.error.justLocked && outcome.notifyOwner)
      await sendNotice(ctx, phone, message('smsCodesLocked', client.language));
    throw new AppError(outcome.error.code, outcome.error.params ?? {});
  }
  return { status: 'success', message: text, auth_token: outcome.token };
}

/**
 * Confirms the phone of a waiting registration: creates the user and signs them in. A registered
 * phone, or one with no registration waiting, is checked and counted like a wrong code (the same
 * answer whether or not the number has a wallet).
 */
export async function confirmRegistration(
  ctx: AppContext,
  input: { phone: string; confirm_code: string },
  client: ClientMeta,
): Promise<AnswerOf<'registerConfirm'>> {
  const { phone } = input;
  await guardCodeCheck(ctx, client.ip);
  const outcome = await ctx.db
    .tx(async (q): Promise<TokenOutcome> => {
      await lockPhone(q, phone);
      const known = (await userIdByPhone(q, phone)) !== null;
      const registration = known ? null : await pendingRegistration(q, phone, true);
      // The attempt's digest for every number: the same check and count with a wallet or without.
      const attempt = await registrationAttempt(q, phone);
      const wrong = await verifyCode(q, ctx, {
        phone,
        code: input.confirm_code,
        dataDigest: attempt ?? undefined,
      });
      if (wrong) return { error: wrong, notifyOwner: known };
      // The code was sent for exactly this data (also checked here, should the two ever part).
      if (!registration || !attempt?.equals(registrationDigest(ctx.config, registration)))
        return { error: { code: 'CODE_INVALID' } };
      const now = ctx.clock.now();
      const created = await q.query<{ id: string }>(
        `INSERT INTO users (first_name, last_name, phone, email, created_at) VALUES ($1, $2, $3, $4, $5)
         RETURNING id`,
        [registration.first_name, registration.last_name, phone, registration.email, now],
      );
      const userId = created.rows[0]!.id;
      // The consent given on step 1, with the time it was given
      // (docs/decisions/account.md#a-persons-account).
      if (registration.terms_version)
        await recordAcceptance(q, userId, registration.terms_version, registration.terms_accepted_at ?? now);
      await q.query('DELETE FROM pending_registrations WHERE phone = $1', [phone]);
      await q.query('DELETE FROM registration_attempts WHERE phone = $1', [phone]);
      // Every user has a RUB account from the start (ledger engineer's hook).
      await openAccount(q, created.rows[0]!.id, 'RUB', now);
      await notifyRegistration(q, created.rows[0]!.id, registration.first_name, now);
      const session = await createSession(q, created.rows[0]!.id, {
        userAgent: client.userAgent,
        ip: client.ip,
        now,
        language: client.language,
      });
      return { token: session.token };
    })
    .catch((error: unknown): TokenOutcome => {
      // Only reachable if the phone was registered around the phone lock (it cannot be, but be exact).
      if (pgCode(error) === PG.uniqueViolation) return { error: { code: 'CODE_INVALID' } };
      throw error;
    });
  return tokenAnswer(ctx, phone, outcome, message('phoneConfirmed', client.language), client);
}

/** Signs a registered phone in with its SMS code; an unknown phone is answered as a wrong code. */
export async function login(
  ctx: AppContext,
  input: { phone: string; confirm_code: string },
  client: ClientMeta,
): Promise<AnswerOf<'login'>> {
  const { phone } = input;
  await guardCodeCheck(ctx, client.ip);
  const outcome = await ctx.db.tx(async (q): Promise<TokenOutcome> => {
    await lockPhone(q, phone);
    const userId = await userIdByPhone(q, phone);
    const wrong = await verifyCode(q, ctx, { phone, code: input.confirm_code });
    if (wrong) return { error: wrong, notifyOwner: userId !== null };
    // A code for an unknown phone is never sent: only a guess can match it.
    if (!userId) return { error: { code: 'CODE_INVALID' } };
    // Before the session exists: a User-Agent without an earlier session is a new device.
    const newDevice = await notifyNewDevice(q, userId, { userAgent: client.userAgent, at: ctx.clock.now() });
    const session = await createSession(q, userId, {
      userAgent: client.userAgent,
      ip: client.ip,
      now: ctx.clock.now(),
      language: client.language,
    });
    return { token: session.token, newDevice };
  });
  // One text per new-device sign-in, after it committed (docs/decisions/live-wallet.md#the-live-wallet).
  if ('newDevice' in outcome && outcome.newDevice)
    await sendNotice(
      ctx,
      phone,
      message('smsNewDevice', client.language, { device: deviceName(client.userAgent) }),
    );
  return tokenAnswer(ctx, phone, outcome, message('signedIn', client.language), client);
}

export async function logout(ctx: AppContext, session: SessionRef): Promise<void> {
  await revokeSession(ctx.db, session.userId, session.sessionId, ctx.clock.now());
}

/** The user's live sessions, most recently used first (the same rules as findSession). */
export async function listSessions(
  ctx: AppContext,
  userId: string,
  currentSessionId: string,
): Promise<AnswerOf<'sessions'>> {
  const now = ctx.clock.now();
  const idleSince = new Date(now.getTime() - SESSION_IDLE_DAYS * 86_400_000);
  const { rows } = await ctx.db.query<{
    id: string;
    created_at: Date;
    last_used_at: Date;
    user_agent: string;
  }>(
    `SELECT id, created_at, last_used_at, user_agent FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_used_at > $3
     ORDER BY last_used_at DESC, created_at DESC LIMIT 100`,
    [userId, now, idleSince],
  );
  return {
    results: rows.map((row) => ({
      id: row.id,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at.toISOString(),
      user_agent: row.user_agent,
      current: row.id === currentSessionId,
    })),
    next: null,
  };
}

export async function endOtherSessions(
  ctx: AppContext,
  userId: string,
  currentSessionId: string,
): Promise<number> {
  return revokeAllSessions(ctx.db, userId, ctx.clock.now(), currentSessionId);
}

/** Ends one session of the user; another user's session is answered as if it did not exist. */
export async function endSession(ctx: AppContext, userId: string, sessionId: string): Promise<void> {
  if (!ID_PATTERN.test(sessionId)) throw new AppError('SESSION_NOT_FOUND');
  if (!(await revokeSession(ctx.db, userId, sessionId, ctx.clock.now())))
    throw new AppError('SESSION_NOT_FOUND');
}
