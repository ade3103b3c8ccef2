/**
 * Operators' sign-in and sessions (docs/decisions/back-office.md, 'The operators' back office' and 'The back office on
 * the app's stack'). The sign-in answers alike for every failure, known e-mail or not. A session lasts 12
 * hours from sign-in and ends after 30 idle minutes; only its token's SHA-256 is stored.
 */
import { hash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';
import { hashPassword, PASSWORD_MIN, passwordMatches } from './passwords.ts';
import { countFailure, throttle } from './sign-in-throttle.ts';
import { checkCode, openSecret } from './totp.ts';

export const OPS_SESSION_HOURS = 12;
export const OPS_IDLE_MINUTES = 30;

/** An operator as a signed-in call sees them: with the session the call came with. */
export type SignedOperator = Operator & { sessionId: string };

interface OperatorRow extends Operator {
  password_hash: string | null;
  password_must_change: boolean;
  totp_sealed: Buffer | null;
  totp_last_step: string;
  failures: number;
  disabled_at: Date | null;
}

/**
 * Signs an operator in with e-mail, password and the current code. A password made by the command line
 * must be replaced at the first sign-in: without `new_password` the answer is PASSWORD_CHANGE_REQUIRED
 * (the code is not used up by it). Every attempt that passes the throttle is audited.
 */
export async function signIn(
  ctx: AppContext,
  body: { email: string; password: string; totp: string; new_password?: string | undefined },
  address: string,
): Promise<{ token: string; operator: Operator & { password_changed: boolean } }> {
  const key = await throttle(ctx, address);
  const email = body.email.trim().toLowerCase();
  const now = ctx.clock.now();
  const outcome = await ctx.db.tx(async (q) => {
    const { rows } = await q.query<OperatorRow>(
      `SELECT id, email, role, password_hash, password_must_change, totp_sealed, totp_last_step, failures, disabled_at
       FROM operators WHERE email = $1 FOR UPDATE`,
      [email],
    );
    const row = rows[0];
    const usable = row && !row.disabled_at && row.password_hash && row.totp_sealed ? row : null;
    // The password is checked for every e-mail (against a hash nothing matches when there is no
    // usable operator), so the answer's time does not tell which e-mails are operators.
    const passwordRight = await passwordMatches(body.password, usable?.password_hash ?? null);
    const code = usable?.totp_sealed
      ? await checkCode(
          openSecret(ctx, usable.totp_sealed, `operator:${usable.email}`),
          body.totp,
          now,
          Number(usable.totp_last_step),
        )
      : null;
    if (!usable || !passwordRight || !code?.valid) {
      await countFailure(q, ctx, key);
      if (row)
        await q.query('UPDATE operators SET failures = failures + 1, updated_at = $2 WHERE id = $1', [
          row.id,
          now,
        ]);
      await writeAudit(q, ctx, row ?? { id: null, email }, {
        action: 'sign_in_failed',
        after: { why: !row ? 'unknown' : !usable ? 'not_usable' : 'wrong', address: key },
      });
      return { error: new AppError('OPERATOR_SIGN_IN_FAILED') };
    }
    let passwordChanged = false;
    if (usable.password_must_change) {
      if (body.new_password === undefined) return { error: new AppError('PASSWORD_CHANGE_REQUIRED') };
      if (body.new_password.length < PASSWORD_MIN || body.new_password === body.password)
        return { error: new AppError('PASSWORD_WEAK') };
      await q.query('UPDATE operators SET password_hash = $2, password_must_change = false WHERE id = $1', [
        usable.id,
        await hashPassword(body.new_password),
      ]);
      passwordChanged = true;
    }
    await q.query(`UPDATE operators SET failures = 0, totp_last_step = $2, updated_at = $3 WHERE id = $1`, [
      usable.id,
      code.timeStep,
      now,
    ]);
    const token = randomBytes(32).toString('base64url');
    await q.query(
      `INSERT INTO ops_sessions (operator_id, token_hash, created_at, last_used_at, expires_at)
       VALUES ($1, $2, $3, $3, $4)`,
      [
        usable.id,
        hash('sha256', token, 'buffer'),
        now,
        new Date(now.getTime() + OPS_SESSION_HOURS * 3_600_000),
      ],
    );
    await writeAudit(q, ctx, usable, { action: 'sign_in', after: { password_changed: passwordChanged } });
    return {
      token,
      operator: { id: usable.id, email: usable.email, role: usable.role, password_changed: passwordChanged },
    };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

/** The operator of a live session (not expired, not idle too long, not revoked), or INVALID_TOKEN. */
export async function operatorOf(ctx: AppContext, token: string | null): Promise<SignedOperator> {
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

export async function signOut(ctx: AppContext, operator: SignedOperator): Promise<void> {
  await ctx.db.tx(async (q) => {
    await q.query('UPDATE ops_sessions SET revoked_at = $2 WHERE id = $1', [
      operator.sessionId,
      ctx.clock.now(),
    ]);
    await writeAudit(q, ctx, operator, { action: 'sign_out' });
  });
}

/** Ends every session of an operator at once (disabled, or their TOTP reset). */
export const revokeSessions = (q: Queryable, id: string, now: Date) =>
  q.query('UPDATE ops_sessions SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL', [id, now]);
