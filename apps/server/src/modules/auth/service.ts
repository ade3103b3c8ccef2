/**
 * Sign-up and sign-in: a registration waits for its SMS code, the confirmed phone becomes a user
 * with a session; a registered phone signs in with a fresh code. Every step about one phone runs
 * in one transaction holding that phone's lock, so two instances cannot both act on it at once.
 */
import { type AnswerOf, type ErrorCode, ID_PATTERN, type Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { PG, pgCode, type Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { openAccount } from '../../ledger/index.ts';
import { notifyNewDevice, notifyRegistration } from '../notifications/service.ts';
import {
  createSession,
  revokeAllSessions,
  revokeSession,
  SESSION_IDLE_DAYS,
  type SessionRef,
} from '../sessions/tokens.ts';
import {
  type CodePurpose,
  deliverCode,
  issueCode,
  lockPhone,
  RESEND_AFTER_SECONDS,
  recentCodeWait,
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
}

async function userIdByPhone(q: Queryable, phone: string): Promise<string | null> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [phone]);
  return rows[0]?.id ?? null;
}

async function hasPendingRegistration(q: Queryable, phone: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM pending_registrations WHERE phone = $1', [phone]);
  return rows.length > 0;
}

async function sendCodeAnswer(
  ctx: AppContext,
  phone: string,
  purpose: CodePurpose,
  code: string,
  client: ClientMeta,
): Promise<AnswerOf<'sendCode'>> {
  await deliverCode(ctx, { phone, purpose, code, language: client.language });
  await maybeSweep(ctx);
  return {
    status: 'success',
    message: message('codeSent', client.language, { phone }),
    resend_after: RESEND_AFTER_SECONDS,
  };
}

/**
 * Keeps the person's data until the phone is confirmed and sends the code. PHONE_TAKEN if registered.
 * Coming back within the resend cooldown (step 2 'change number', then the same number again)
 * updates the data and keeps the code just sent instead of refusing: no SMS goes out, and
 * resend_after says how long until 'send again' works.
 */
export async function register(
  ctx: AppContext,
  registration: Registration,
  client: ClientMeta,
): Promise<AnswerOf<'register'>> {
  const { phone } = registration;
  const { code, wait } = await ctx.db.tx(async (q) => {
    await lockPhone(q, phone);
    if (await userIdByPhone(q, phone)) throw new AppError('PHONE_TAKEN');
    const wait = await recentCodeWait(q, ctx, phone, 'register');
    const issued = wait > 0 ? null : await issueCode(q, ctx, { phone, purpose: 'register', ip: client.ip });
    const now = ctx.clock.now();
    await q.query(
      `INSERT INTO pending_registrations (phone, first_name, last_name, email, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (phone) DO UPDATE SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
         email = EXCLUDED.email, updated_at = EXCLUDED.updated_at`,
      [phone, registration.first_name, registration.last_name, registration.email, now],
    );
    return { code: issued?.code ?? null, wait };
  });
  if (code === null) {
    return {
      status: 'success',
      message: message('codeSent', client.language, { phone }),
      resend_after: wait,
    };
  }
  return sendCodeAnswer(ctx, phone, 'register', code, client);
}

/**
 * A new code for a phone: a sign-in code when it is registered, the registration code again when
 * a registration is waiting (register step 2 'send again'), PHONE_NOT_REGISTERED otherwise.
 */
export async function sendCode(
  ctx: AppContext,
  phone: string,
  client: ClientMeta,
): Promise<AnswerOf<'sendCode'>> {
  const { code, purpose } = await ctx.db.tx(async (q) => {
    await lockPhone(q, phone);
    let purpose: CodePurpose;
    if (await userIdByPhone(q, phone)) purpose = 'login';
    else if (await hasPendingRegistration(q, phone)) purpose = 'register';
    else throw new AppError('PHONE_NOT_REGISTERED');
    const issued = await issueCode(q, ctx, { phone, purpose, ip: client.ip });
    return { code: issued.code, purpose };
  });
  return sendCodeAnswer(ctx, phone, purpose, code, client);
}

type TokenOutcome = { token: string } | { error: ErrorCode };

/** Wrong codes are counted in the transaction, which must commit: the error is thrown after it. */
function tokenAnswer(outcome: TokenOutcome, text: string): AnswerOf<'login'> {
  if ('error' in outcome) throw new AppError(outcome.error);
  return { status: 'success', message: text, auth_token: outcome.token };
}

/** Confirms the phone of a waiting registration: creates the user and signs them in. */
export async function confirmRegistration(
  ctx: AppContext,
  input: { phone: string; confirm_code: string },
  client: ClientMeta,
): Promise<AnswerOf<'registerConfirm'>> {
  const { phone } = input;
  const outcome = await ctx.db
    .tx(async (q): Promise<TokenOutcome> => {
      await lockPhone(q, phone);
      if (await userIdByPhone(q, phone)) return { error: 'PHONE_TAKEN' };
      const pending = await q.query<{ first_name: string; last_name: string; email: string }>(
        'SELECT first_name, last_name, email FROM pending_registrations WHERE phone = $1 FOR UPDATE',
        [phone],
      );
      const registration = pending.rows[0];
      if (!registration) return { error: 'REGISTRATION_NOT_FOUND' };
      const wrong = await verifyCode(q, ctx, { phone, purpose: 'register', code: input.confirm_code });
      if (wrong) return { error: wrong };
      const now = ctx.clock.now();
      const created = await q.query<{ id: string }>(
        `INSERT INTO users (first_name, last_name, phone, email, created_at) VALUES ($1, $2, $3, $4, $5)
         RETURNING id`,
        [registration.first_name, registration.last_name, phone, registration.email, now],
      );
      await q.query('DELETE FROM pending_registrations WHERE phone = $1', [phone]);
      // Every user has a RUB account from the start (ledger engineer's hook).
      await openAccount(q, created.rows[0]!.id, 'RUB', now);
      await notifyRegistration(q, created.rows[0]!.id, registration.first_name, now);
      const session = await createSession(q, created.rows[0]!.id, {
        userAgent: client.userAgent,
        ip: client.ip,
        now,
      });
      return { token: session.token };
    })
    .catch((error: unknown): TokenOutcome => {
      // Only reachable if the phone was registered around the phone lock (it cannot be, but be exact).
      if (pgCode(error) === PG.uniqueViolation) return { error: 'PHONE_TAKEN' };
      throw error;
    });
  return tokenAnswer(outcome, message('phoneConfirmed', client.language));
}

/** Signs a registered phone in with its SMS code. */
export async function login(
  ctx: AppContext,
  input: { phone: string; confirm_code: string },
  client: ClientMeta,
): Promise<AnswerOf<'login'>> {
  const { phone } = input;
  const outcome = await ctx.db.tx(async (q): Promise<TokenOutcome> => {
    await lockPhone(q, phone);
    const userId = await userIdByPhone(q, phone);
    if (!userId) return { error: 'PHONE_NOT_REGISTERED' };
    const wrong = await verifyCode(q, ctx, { phone, purpose: 'login', code: input.confirm_code });
    if (wrong) return { error: wrong };
    // Before the session exists: a User-Agent without an earlier session is a new device.
    await notifyNewDevice(q, userId, { userAgent: client.userAgent, at: ctx.clock.now() });
    const session = await createSession(q, userId, {
      userAgent: client.userAgent,
      ip: client.ip,
      now: ctx.clock.now(),
    });
    return { token: session.token };
  });
  return tokenAnswer(outcome, message('signedIn', client.language));
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
