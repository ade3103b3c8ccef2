/**
 * Operators of the back office and their sign-in (docs/decisions.md section 12). A password is kept as
 * scrypt; the TOTP secret (RFC 6238, 6 digits, 30 s) sealed under OPS_KEY, since a code is checked
 * against it. Wrong passwords or codes lock as the wallet's PIN does: 5 in a row lock sign-in for
 * 15 minutes, 10 revoke the operator's sessions and lock until an administrator unlocks. A session
 * lasts 12 hours from sign-in and ends after 30 idle minutes; only its token's SHA-256 is stored.
 */
import { hash, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { OperatorRole } from '@e-wallet/contract';
import { generateSecret, verify } from 'otplib';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { PIN_LOCK_AFTER, PIN_LOCK_MINUTES, PIN_REVOKE_AFTER } from '../modules/auth/index.ts';
import { open, seal } from '../providers/kyc/sealed.ts';
import { writeAudit } from './audit.ts';

export const OPS_SESSION_HOURS = 12;
export const OPS_IDLE_MINUTES = 30;
export const PASSWORD_MIN = 12;
/** A lock 'until an administrator unlocks': far enough to never run out. */
const LOCKED_FOR_GOOD = new Date('9999-12-31T00:00:00Z');
const TOTP_PERIOD = 30;
/** A hash no password matches, checked for unknown e-mails. */
const UNKNOWN_HASH = `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
}

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${derived.toString('base64')}`;
}

async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [kind, salt, expected] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !expected) return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64'), 32);
  const want = Buffer.from(expected, 'base64');
  return derived.length === want.length && timingSafeEqual(derived, want);
}

function opsKey(ctx: AppContext): Buffer {
  return Buffer.from(hkdfSync('sha256', ctx.config.OPS_KEY, 'e-wallet', 'operators/v1', 32));
}

/** Creates an operator; answers the one-time password and the TOTP secret, shown once. */
export async function createOperator(
  ctx: AppContext,
  input: { email: string; role: OperatorRole },
  by: Operator | null,
): Promise<{ operator: Operator; password: string; totpSecret: string }> {
  const email = input.email.trim().toLowerCase();
  const password = randomBytes(18).toString('base64url');
  const totpSecret = generateSecret();
  const now = ctx.clock.now();
  const passwordHash = await hashPassword(password);
  const operator = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<Operator>(
      `INSERT INTO operators (email, role, password_hash, totp_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (email) DO NOTHING RETURNING id, email, role`,
      [email, input.role, passwordHash, seal(opsKey(ctx), Buffer.from(totpSecret), `operator:${email}`), now],
    );
    const created = rows[0];
    if (!created) throw new AppError('OPERATOR_EXISTS');
    // Made by the command line: no operator, the system user who ran it.
    await writeAudit(q, ctx, by ?? { id: null, email: `npm run ops (${process.env.USER ?? 'unknown'})` }, {
      action: 'operator_create',
      objectType: 'operator',
      objectId: created.id,
      after: { email, role: input.role },
    });
    return created;
  });
  return { operator, password, totpSecret };
}

interface OperatorRow extends Operator {
  password_hash: string;
  password_must_change: boolean;
  totp_sealed: Buffer;
  totp_last_step: string;
  failures: number;
  locked_until: Date | null;
}

function minutesLeft(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}

/**
 * Signs an operator in with e-mail, password and the current code. At the first sign-in the one-time
 * password must be replaced: without `new_password` the answer is PASSWORD_CHANGE_REQUIRED (the code is
 * not used up by it). Every attempt is audited.
 */
export async function signIn(
  ctx: AppContext,
  body: { email: string; password: string; totp: string; new_password?: string | undefined },
): Promise<{ token: string; operator: Operator & { password_changed: boolean } }> {
  const email = body.email.trim().toLowerCase();
  const now = ctx.clock.now();
  const outcome = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<OperatorRow>(
      `SELECT id, email, role, password_hash, password_must_change, totp_sealed, totp_last_step, failures, locked_until
       FROM operators WHERE email = $1 AND disabled_at IS NULL FOR UPDATE`,
      [email],
    );
    const row = rows[0];
    if (!row) {
      // As long as a known operator's check, so the answer's time does not tell which e-mails exist.
      await passwordMatches(body.password, UNKNOWN_HASH);
      await writeAudit(q, ctx, { id: null, email }, { action: 'sign_in_failed', after: { why: 'unknown' } });
      return { error: new AppError('OPERATOR_SIGN_IN_FAILED', { left: PIN_LOCK_AFTER - 1 }) };
    }
    if (row.locked_until && row.locked_until > now) {
      await writeAudit(q, ctx, row, { action: 'sign_in_failed', after: { why: 'locked' } });
      return { error: new AppError('OPERATOR_LOCKED', { minutes: minutesLeft(row.locked_until, now) }) };
    }
    const secret = open(opsKey(ctx), Buffer.from(row.totp_sealed), `operator:${row.email}`).toString();
    const code = await verify({
      secret,
      token: body.totp,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: TOTP_PERIOD,
      afterTimeStep: Number(row.totp_last_step),
    });
    const passwordRight = await passwordMatches(body.password, row.password_hash);
    if (!passwordRight || !code.valid) {
      const failures = row.failures + 1;
      const lockedUntil =
        failures >= PIN_REVOKE_AFTER
          ? LOCKED_FOR_GOOD
          : failures % PIN_LOCK_AFTER === 0
            ? new Date(now.getTime() + PIN_LOCK_MINUTES * 60_000)
            : null;
      await q.query('UPDATE operators SET failures = $2, locked_until = $3, updated_at = $4 WHERE id = $1', [
        row.id,
        failures,
        lockedUntil,
        now,
      ]);
      if (failures >= PIN_REVOKE_AFTER)
        await q.query(
          'UPDATE ops_sessions SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL',
          [row.id, now],
        );
      await writeAudit(q, ctx, row, { action: 'sign_in_failed', after: { failures } });
      return {
        error: lockedUntil
          ? new AppError('OPERATOR_LOCKED', { minutes: minutesLeft(lockedUntil, now) })
          : new AppError('OPERATOR_SIGN_IN_FAILED', { left: PIN_LOCK_AFTER - (failures % PIN_LOCK_AFTER) }),
      };
    }
    let passwordChanged = false;
    if (row.password_must_change) {
      if (body.new_password === undefined) return { error: new AppError('PASSWORD_CHANGE_REQUIRED') };
      if (body.new_password.length < PASSWORD_MIN || body.new_password === body.password)
        return { error: new AppError('PASSWORD_WEAK') };
      await q.query('UPDATE operators SET password_hash = $2, password_must_change = false WHERE id = $1', [
        row.id,
        await hashPassword(body.new_password),
      ]);
      passwordChanged = true;
    }
    await q.query(
      `UPDATE operators SET failures = 0, locked_until = NULL, totp_last_step = $2, updated_at = $3 WHERE id = $1`,
      [row.id, (code as unknown as { timeStep: number }).timeStep, now],
    );
    const token = randomBytes(32).toString('base64url');
    await q.query(
      `INSERT INTO ops_sessions (operator_id, token_hash, created_at, last_used_at, expires_at)
       VALUES ($1, $2, $3, $3, $4)`,
      [row.id, hash('sha256', token, 'buffer'), now, new Date(now.getTime() + OPS_SESSION_HOURS * 3_600_000)],
    );
    await writeAudit(q, ctx, row, { action: 'sign_in', after: { password_changed: passwordChanged } });
    return {
      token,
      operator: { id: row.id, email: row.email, role: row.role, password_changed: passwordChanged },
    };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

/** The operator of a live session (not expired, not idle too long, not revoked), or INVALID_TOKEN. */
export async function operatorOf(
  ctx: AppContext,
  token: string | null,
): Promise<Operator & { sessionId: string }> {
  if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError('INVALID_TOKEN');
  const now = ctx.clock.now();
  const { rows } = await ctx.db.query<Operator & { session_id: string }>(
    `UPDATE ops_sessions s SET last_used_at = $2
     FROM operators o
     WHERE s.token_hash = $1 AND o.id = s.operator_id AND s.revoked_at IS NULL AND s.expires_at > $2
       AND s.last_used_at > $3 AND o.disabled_at IS NULL
     RETURNING o.id, o.email, o.role, s.id AS session_id`,
    [hash('sha256', token, 'buffer'), now, new Date(now.getTime() - OPS_IDLE_MINUTES * 60_000)],
  );
  const row = rows[0];
  if (!row) throw new AppError('INVALID_TOKEN');
  return { id: row.id, email: row.email, role: row.role, sessionId: row.session_id };
}

export async function signOut(ctx: AppContext, operator: Operator & { sessionId: string }): Promise<void> {
  await ctx.db.tx(async (q) => {
    await q.query('UPDATE ops_sessions SET revoked_at = $2 WHERE id = $1', [
      operator.sessionId,
      ctx.clock.now(),
    ]);
    await writeAudit(q, ctx, operator, { action: 'sign_out' });
  });
}

export async function listOperators(q: Queryable): Promise<unknown[]> {
  const { rows } = await q.query(
    `SELECT id, email, role, password_must_change, failures, locked_until, created_at FROM operators ORDER BY email`,
  );
  return rows;
}

/** An administrator lifts an operator's lock (after 10 wrong attempts it lasts until then). */
export async function unlockOperator(ctx: AppContext, by: Operator, id: string): Promise<void> {
  await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ failures: number; locked_until: Date | null }>(
      'SELECT failures, locked_until FROM operators WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND');
    await q.query('UPDATE operators SET failures = 0, locked_until = NULL, updated_at = $2 WHERE id = $1', [
      id,
      ctx.clock.now(),
    ]);
    await writeAudit(q, ctx, by, {
      action: 'operator_unlock',
      objectType: 'operator',
      objectId: id,
      before: rows[0],
      after: { failures: 0, locked_until: null },
    });
  });
}
