/**
 * Operators of the back office and their sign-in (docs/decisions.md sections 12 and 19). A password is
 * kept as scrypt; the TOTP secret (RFC 6238, 6 digits, 30 s) sealed under OPS_KEY, since a code is
 * checked against it. Sign-in is throttled by the client's address before any account is read, and
 * answers alike for every failure, known e-mail or not; no failure locks an account or ends its
 * sessions. A session lasts 12 hours from sign-in and ends after 30 idle minutes; only its token's
 * SHA-256 is stored. No operator ever sees another's credentials: a new operator, or one whose TOTP
 * was reset, sets them through a one-time link.
 */
import { hash, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import {
  type ErrorCode,
  OPERATOR_PASSWORD_MIN,
  type OperatorRole,
  roleNeedsSecondAdmin,
} from '@e-wallet/contract';
import { generateSecret, generateURI, verify } from 'otplib';
import type { AppContext } from '../context.ts';
import { open, seal } from '../crypto/sealed.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { opaqueIds } from '../http/opaque-id.ts';
import { addressKey, hit, peek } from '../modules/limits/index.ts';
import { writeAudit } from './audit.ts';

export const OPS_SESSION_HOURS = 12;
export const OPS_IDLE_MINUTES = 30;
export const PASSWORD_MIN = OPERATOR_PASSWORD_MIN;
/** A one-time link lasts this long. */
export const SETUP_LINK_HOURS = 72;
/**
 * Per client address: failed tries, then all tries, in a window. Both are checked before any account
 * is read, so a stranger can neither lock an operator out nor make the server do more than this.
 */
export const SIGN_IN_FAILURES = { windowSeconds: 15 * 60, max: 10 };
export const SIGN_IN_TRIES = { windowSeconds: 15 * 60, max: 40 };
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

async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  const [kind, salt, expected] = (stored ?? UNKNOWN_HASH).split('$');
  if (kind !== 'scrypt' || !salt || !expected) return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64'), 32);
  const want = Buffer.from(expected, 'base64');
  return stored !== null && derived.length === want.length && timingSafeEqual(derived, want);
}

function opsKey(ctx: AppContext): Buffer {
  return Buffer.from(hkdfSync('sha256', ctx.config.OPS_KEY, 'e-wallet', 'operators/v1', 32));
}

const sealTotp = (ctx: AppContext, secret: string, email: string) =>
  seal(opsKey(ctx), Buffer.from(secret), `operator:${email}`);

/**
 * Creates an operator with a one-time password and a TOTP secret, for `npm run ops -- create-operator`
 * only: it prints them to the terminal that ran it and nowhere else.
 */
export async function createOperator(
  ctx: AppContext,
  input: { email: string; role: OperatorRole },
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
      [email, input.role, passwordHash, sealTotp(ctx, totpSecret, email), now],
    );
    const created = rows[0];
    if (!created) throw new AppError('OPERATOR_EXISTS');
    // Made by the command line: no operator, the system user who ran it.
    await writeAudit(
      q,
      ctx,
      { id: null, email: `npm run ops (${process.env.USER ?? 'unknown'})` },
      {
        action: 'operator_create',
        objectType: 'operator',
        objectId: created.id,
        after: { email, role: input.role },
      },
    );
    return created;
  });
  return { operator, password, totpSecret };
}

/** A new one-time link of an operator; earlier unused links of theirs stop working. */
async function issueLink(
  q: Queryable,
  ctx: AppContext,
  operatorId: string,
  purpose: 'credentials' | 'totp',
  by: Operator,
): Promise<{ token: string; purpose: 'credentials' | 'totp'; expires_at: Date }> {
  const now = ctx.clock.now();
  await q.query('UPDATE ops_setup_links SET used_at = $2 WHERE operator_id = $1 AND used_at IS NULL', [
    operatorId,
    now,
  ]);
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + SETUP_LINK_HOURS * 3_600_000);
  await q.query(
    `INSERT INTO ops_setup_links (operator_id, purpose, token_hash, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [operatorId, purpose, hash('sha256', token, 'buffer'), by.id, now, expires],
  );
  return { token, purpose, expires_at: expires };
}

/**
 * An administrator adds an operator: no password nor TOTP exists yet, the answer is a one-time link
 * for the new operator to set their own. A role that approves refunds or manages operators is only
 * proposed: the operator starts as support until a second administrator confirms it.
 */
export async function inviteOperator(
  ctx: AppContext,
  by: Operator,
  input: { email: string; role: OperatorRole },
): Promise<unknown> {
  const email = input.email.trim().toLowerCase();
  const pending = roleNeedsSecondAdmin(input.role);
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const { rows } = await q.query<Operator & { pending_role: OperatorRole | null }>(
      `INSERT INTO operators (email, role, pending_role, pending_by, password_must_change, created_at, updated_at)
       VALUES ($1, $2, $3, $4, false, $5, $5) ON CONFLICT (email) DO NOTHING
       RETURNING id, email, role, pending_role`,
      [email, pending ? 'support' : input.role, pending ? input.role : null, pending ? by.id : null, now],
    );
    const created = rows[0];
    if (!created) throw new AppError('OPERATOR_EXISTS');
    await writeAudit(q, ctx, by, {
      action: 'operator_create',
      objectType: 'operator',
      objectId: created.id,
      after: { email, role: created.role, pending_role: created.pending_role },
    });
    const link = await issueLink(q, ctx, created.id, 'credentials', by);
    return { ...created, setup: link };
  });
}

interface OperatorRow extends Operator {
  password_hash: string | null;
  password_must_change: boolean;
  totp_sealed: Buffer | null;
  totp_last_step: string;
  failures: number;
  disabled_at: Date | null;
}

/** The address's failed tries so far; RATE_LIMITED once there are too many, before anything else. */
async function throttle(ctx: AppContext, address: string): Promise<string> {
  const now = ctx.clock.now();
  const key = addressKey(address);
  const failed = await peek(ctx.db, `ops-sign-in-failed:${key}`, SIGN_IN_FAILURES.windowSeconds, now);
  if (failed.count >= SIGN_IN_FAILURES.max) throw new AppError('RATE_LIMITED');
  const tried = await hit(ctx.db, `ops-sign-in:${key}`, SIGN_IN_TRIES.windowSeconds, SIGN_IN_TRIES.max, now);
  if (!tried.allowed) throw new AppError('RATE_LIMITED');
  return key;
}

async function countFailure(q: Queryable, ctx: AppContext, key: string): Promise<void> {
  await hit(q, `ops-sign-in-failed:${key}`, SIGN_IN_FAILURES.windowSeconds, 1_000_000, ctx.clock.now());
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
    const code =
      usable?.totp_sealed &&
      (await verify({
        secret: open(opsKey(ctx), Buffer.from(usable.totp_sealed), `operator:${usable.email}`).toString(),
        token: body.totp,
        epoch: Math.floor(now.getTime() / 1000),
        epochTolerance: TOTP_PERIOD,
        afterTimeStep: Number(usable.totp_last_step),
      }));
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
    await q.query(
      `UPDATE operators SET failures = 0, locked_until = NULL, totp_last_step = $2, updated_at = $3 WHERE id = $1`,
      [usable.id, (code as unknown as { timeStep: number }).timeStep, now],
    );
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

const revokeSessions = (q: Queryable, id: string, now: Date) =>
  q.query('UPDATE ops_sessions SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL', [id, now]);

/** Operators, newest first, a page at a time; whether each has set their credentials, never them. */
export async function listOperators(
  ctx: AppContext,
  query: { cursor?: string | undefined; limit?: string | undefined },
): Promise<{ results: unknown[]; next: string | null }> {
  const ids = opaqueIds(ctx.config);
  const after = query.cursor ? decodeCursor(query.cursor, ids) : null;
  const limit = Number(query.limit ?? 50);
  const { rows } = await ctx.db.query<{ id: string; created_at: Date }>(
    `SELECT o.id, o.email, o.role, o.pending_role, p.email AS pending_by_email,
       (o.password_hash IS NOT NULL AND o.totp_sealed IS NOT NULL) AS set_up, o.failures, o.disabled_at,
       o.created_at,
       (SELECT max(s.last_used_at) FROM ops_sessions s WHERE s.operator_id = o.id) AS last_seen_at
     FROM operators o LEFT JOIN operators p ON p.id = o.pending_by
     WHERE $1::timestamptz IS NULL OR (o.created_at, o.id) < ($1::timestamptz, $2::uuid)
     ORDER BY o.created_at DESC, o.id DESC LIMIT $3`,
    [after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  const results = rows.slice(0, limit);
  const last = results.at(-1);
  return {
    results,
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, ids) : null,
  };
}

interface Target {
  id: string;
  email: string;
  role: OperatorRole;
  pending_role: OperatorRole | null;
  pending_by: string | null;
  disabled_at: Date | null;
  password_hash: string | null;
}

/** The operator an administrator acts on, locked; never the administrator themself. */
async function target(q: Queryable, by: Operator, id: string): Promise<Target> {
  if (id === by.id) throw new AppError('OPERATOR_SELF');
  const { rows } = await q.query<Target>(
    `SELECT id, email, role, pending_role, pending_by, disabled_at, password_hash FROM operators
     WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw new AppError('NOT_FOUND');
  if (rows[0].disabled_at) throw new AppError('OPERATOR_DISABLED');
  return rows[0];
}

/** An administrator clears an operator's count of wrong tries (and a lock of the former rules). */
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

/** An administrator disables another operator: every session of theirs and every open link end at once. */
export async function disableOperator(ctx: AppContext, by: Operator, id: string, reason: string) {
  return ctx.db.tx(async (q) => {
    const row = await target(q, by, id);
    const now = ctx.clock.now();
    await q.query(
      'UPDATE operators SET disabled_at = $2, pending_role = NULL, pending_by = NULL WHERE id = $1',
      [id, now],
    );
    await revokeSessions(q, id, now);
    await q.query('UPDATE ops_setup_links SET used_at = $2 WHERE operator_id = $1 AND used_at IS NULL', [
      id,
      now,
    ]);
    await writeAudit(q, ctx, by, {
      action: 'operator_disable',
      objectType: 'operator',
      objectId: id,
      before: { email: row.email, role: row.role },
      after: { disabled: true, reason },
    });
    return { id, status: 'disabled' };
  });
}

/**
 * An administrator changes another operator's role. A role that approves refunds or manages operators
 * is proposed and waits for a second administrator (confirmRole); any other is set at once.
 */
export async function changeRole(ctx: AppContext, by: Operator, id: string, role: OperatorRole) {
  return ctx.db.tx(async (q) => {
    const row = await target(q, by, id);
    const now = ctx.clock.now();
    if (roleNeedsSecondAdmin(role) && role !== row.role) {
      await q.query(
        'UPDATE operators SET pending_role = $2, pending_by = $3, updated_at = $4 WHERE id = $1',
        [id, role, by.id, now],
      );
      await writeAudit(q, ctx, by, {
        action: 'operator_role_propose',
        objectType: 'operator',
        objectId: id,
        before: { role: row.role },
        after: { pending_role: role },
      });
      return { id, role: row.role, pending_role: role, status: 'proposed' };
    }
    await q.query(
      'UPDATE operators SET role = $2, pending_role = NULL, pending_by = NULL, updated_at = $3 WHERE id = $1',
      [id, role, now],
    );
    await writeAudit(q, ctx, by, {
      action: 'operator_role',
      objectType: 'operator',
      objectId: id,
      before: { role: row.role },
      after: { role },
    });
    return { id, role, pending_role: null, status: 'changed' };
  });
}

/** A second administrator grants the role another proposed. */
export async function confirmRole(ctx: AppContext, by: Operator, id: string) {
  return ctx.db.tx(async (q) => {
    const row = await target(q, by, id);
    if (!row.pending_role) throw new AppError('ROLE_NOT_PROPOSED');
    if (row.pending_by) {
      const refusal = await secondOperatorRefusal(q, by.id, row.pending_by, 'ROLE_SECOND_ADMIN');
      if (refusal) throw refusal;
    }
    await q.query(
      'UPDATE operators SET role = pending_role, pending_role = NULL, pending_by = NULL, updated_at = $2 WHERE id = $1',
      [id, ctx.clock.now()],
    );
    await writeAudit(q, ctx, by, {
      action: 'operator_role',
      objectType: 'operator',
      objectId: id,
      before: { role: row.role },
      after: { role: row.pending_role, proposed_by: row.pending_by },
    });
    return { id, role: row.pending_role, pending_role: null, status: 'changed' };
  });
}

/**
 * An administrator resets another operator's TOTP: the old secret is gone, their sessions end, and the
 * answer is a one-time link where the operator sets a new one with their own password. An operator who
 * never set their credentials gets a new link for them instead.
 */
export async function resetTotp(ctx: AppContext, by: Operator, id: string) {
  return ctx.db.tx(async (q) => {
    const row = await target(q, by, id);
    const now = ctx.clock.now();
    await q.query(
      'UPDATE operators SET totp_sealed = NULL, totp_last_step = 0, updated_at = $2 WHERE id = $1',
      [id, now],
    );
    await revokeSessions(q, id, now);
    const link = await issueLink(q, ctx, id, row.password_hash ? 'totp' : 'credentials', by);
    await writeAudit(q, ctx, by, {
      action: 'operator_totp_reset',
      objectType: 'operator',
      objectId: id,
      after: { link: link.purpose },
    });
    return { id, setup: link };
  });
}

interface LinkRow {
  id: string;
  operator_id: string;
  purpose: 'credentials' | 'totp';
  totp_sealed: Buffer | null;
  email: string;
  role: OperatorRole;
  password_hash: string | null;
}

async function liveLink(q: Queryable, ctx: AppContext, token: string): Promise<LinkRow> {
  const { rows } = await q.query<LinkRow>(
    `SELECT l.id, l.operator_id, l.purpose, l.totp_sealed, o.email, o.role, o.password_hash
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
      seal(opsKey(ctx), Buffer.from(secret), `setup:${link.id}`),
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
    const secret = open(opsKey(ctx), Buffer.from(link.totp_sealed), `setup:${link.id}`).toString();
    const code = await verify({
      secret,
      token: body.totp,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: TOTP_PERIOD,
    });
    if (!code.valid) return { error: new AppError('SETUP_CODE_WRONG') };
    const step = (code as unknown as { timeStep: number }).timeStep;
    if (link.purpose === 'credentials')
      await q.query(`UPDATE operators SET password_hash = $2, password_must_change = false WHERE id = $1`, [
        link.operator_id,
        await hashPassword(body.password!),
      ]);
    await q.query(
      `UPDATE operators SET totp_sealed = $2, totp_last_step = $3, failures = 0, locked_until = NULL,
         updated_at = $4 WHERE id = $1`,
      [link.operator_id, sealTotp(ctx, secret, link.email), step, now],
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

/**
 * Four eyes with two people, not one (docs/decisions.md section 19): an operator approves a refund
 * only when they are not its proposer and the proposer never created nor changed their account (made
 * them, proposed or set their role, reset their TOTP, lifted their lock...). Read from the audit,
 * which nobody can edit.
 */
export async function mayApprove(q: Queryable, approverId: string, proposerId: string): Promise<boolean> {
  if (approverId === proposerId) return false;
  const { rows } = await q.query(
    `SELECT 1 FROM ops_audit WHERE operator_id = $1 AND object_type = 'operator' AND object_id = $2
       AND action LIKE 'operator\\_%' LIMIT 1`,
    [proposerId, approverId],
  );
  return rows.length === 0;
}

/**
 * The one four-eyes rule of every action two operators make (a refund, a fraud-list entry or its
 * removal, a hold's release from the floor, a role that approves; docs/decisions/recovery-and-four-eyes.md):
 * asked with the proposal locked. The action's own code when the approver proposed it, FOUR_EYES_RELATED
 * when the proposer made or changed the approver (`mayApprove`); null for a second pair of eyes.
 */
export async function secondOperatorRefusal(
  q: Queryable,
  approverId: string,
  proposerId: string,
  sameOperator: ErrorCode,
): Promise<AppError | null> {
  if (approverId === proposerId) return new AppError(sameOperator);
  return (await mayApprove(q, approverId, proposerId)) ? null : new AppError('FOUR_EYES_RELATED');
}
