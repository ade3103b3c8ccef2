/**
 * One-time setup links (docs/decisions/back-office.md, 'The back office on the app's stack'): no operator ever sees
 * another's credentials. A new operator, or one whose TOTP was reset, sets them through a link that lasts
 * 72 hours; only the link's SHA-256 is stored, and a newer link of theirs ends the older ones.
 */
import { hash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import { countFailure, throttle } from './sign-in-throttle.ts';
import { checkCode, generateSecret, generateURI, openSecret, sealSecret } from './totp.ts';

/** A one-time link lasts this long. */
export const SETUP_LINK_HOURS = 72;

export type LinkPurpose = 'credentials' | 'totp';

/** A new one-time link of an operator; earlier unused links of theirs stop working. */
export async function issueLink(
  q: Queryable,
  ctx: AppContext,
  operatorId: string,
  purpose: LinkPurpose,
  by: Operator,
): Promise<{ token: string; purpose: LinkPurpose; expires_at: Date }> {
  const now = ctx.clock.now();
  await endLinks(q, operatorId, now);
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + SETUP_LINK_HOURS * 3_600_000);
  await q.query(
    `INSERT INTO ops_setup_links (operator_id, purpose, token_hash, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [operatorId, purpose, hash('sha256', token, 'buffer'), by.id, now, expires],
  );
  return { token, purpose, expires_at: expires };
}

/** Every open link of an operator stops working (a newer one issued, or the operator disabled). */
export const endLinks = (q: Queryable, operatorId: string, now: Date) =>
  q.query('UPDATE ops_setup_links SET used_at = $2 WHERE operator_id = $1 AND used_at IS NULL', [
    operatorId,
    now,
  ]);

interface LinkRow {
  id: string;
  operator_id: string;
  purpose: LinkPurpose;
  totp_sealed: Buffer | null;
  email: string;
  password_hash: string | null;
}

async function liveLink(q: Queryable, ctx: AppContext, token: string): Promise<LinkRow> {
  const { rows } = await q.query<LinkRow>(
    `SELECT l.id, l.operator_id, l.purpose, l.totp_sealed, o.email, o.password_hash
     FROM ops_setup_links l JOIN operators o ON o.id = l.operator_id
     WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2 AND o.disabled_at IS NULL
     FOR UPDATE OF l`,
    [hash('sha256', token, 'buffer'), ctx.clock.now()],
  );
  if (!rows[0]) throw new AppError('SETUP_LINK_INVALID');
  return rows[0];
}

/**
 * Opening a link: a fresh TOTP secret for the operator's authenticator (each opening replaces the
 * last, so only the one who finishes holds it). Nothing is set until `finishSetup` proves it.
 */
export async function startSetup(ctx: AppContext, token: string) {
  return ctx.db.tx(async (q) => {
    const link = await liveLink(q, ctx, token);
    const secret = generateSecret();
    await q.query('UPDATE ops_setup_links SET totp_sealed = $2 WHERE id = $1', [
      link.id,
      sealSecret(ctx, secret, `setup:${link.id}`),
    ]);
    return {
      email: link.email,
      purpose: link.purpose,
      totp_secret: secret,
      otpauth_uri: generateURI({ issuer: 'E-Wallet back office', label: link.email, secret }),
    };
  });
}

/** Finishing a link: the code proves the authenticator holds the secret; the link is used up. */
export async function finishSetup(
  ctx: AppContext,
  body: { token: string; password?: string | undefined; current_password?: string | undefined; totp: string },
  address: string,
) {
  const key = await throttle(ctx, address);
  const now = ctx.clock.now();
  const outcome = await ctx.db.tx(async (q) => {
    const link = await liveLink(q, ctx, body.token);
    if (!link.totp_sealed) throw new AppError('SETUP_LINK_INVALID');
    if (link.purpose === 'credentials' && !body.password) throw new AppError('SETUP_PASSWORD_REQUIRED');
    if (link.purpose === 'totp') {
      if (!body.current_password) throw new AppError('SETUP_PASSWORD_REQUIRED');
      if (!(await passwordMatches(body.current_password, link.password_hash))) {
        await countFailure(q, ctx, key);
        return { error: new AppError('OPERATOR_SIGN_IN_FAILED') };
      }
    }
    const secret = openSecret(ctx, link.totp_sealed, `setup:${link.id}`);
    const code = await checkCode(secret, body.totp, now);
    if (!code.valid) return { error: new AppError('SETUP_CODE_WRONG') };
    if (link.purpose === 'credentials')
      await q.query(`UPDATE operators SET password_hash = $2, password_must_change = false WHERE id = $1`, [
        link.operator_id,
        await hashPassword(body.password!),
      ]);
    await q.query(
      `UPDATE operators SET totp_sealed = $2, totp_last_step = $3, failures = 0, updated_at = $4 WHERE id = $1`,
      [link.operator_id, sealSecret(ctx, secret, `operator:${link.email}`), code.timeStep, now],
    );
    await q.query('UPDATE ops_setup_links SET used_at = $2, totp_sealed = NULL WHERE id = $1', [
      link.id,
      now,
    ]);
    await writeAudit(
      q,
      ctx,
      { id: link.operator_id, email: link.email },
      {
        action: 'operator_setup',
        objectType: 'operator',
        objectId: link.operator_id,
        after: { purpose: link.purpose },
      },
    );
    return { status: 'success', email: link.email };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}
