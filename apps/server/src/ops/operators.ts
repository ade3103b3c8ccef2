/**
 * Operators of the back office, as administrators manage them (docs/decisions/back-office.md, 'The operators' back
 * office' and 'The back office on the app's stack'): invited with a one-time link (setup-links.ts), their
 * role changed (a role that approves refunds or manages operators needs a second administrator), disabled,
 * their TOTP reset. Signing in is sessions.ts's, with passwords.ts, totp.ts and sign-in-throttle.ts;
 * four eyes (refunds, the fraud list, hold releases, role confirmations) four-eyes.ts's.
 */
import { randomBytes } from 'node:crypto';
import { type OperatorRole, roleNeedsSecondAdmin } from '@e-wallet/contract';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import { secondOperatorRefusal } from './four-eyes.ts';
import { bounds, type Page, type PageQuery, pageOf } from './pages.ts';
import { hashPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';
import { endLinks, issueLink } from './setup-links.ts';
import { generateSecret, sealSecret } from './totp.ts';

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
}

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
      [email, input.role, passwordHash, sealSecret(ctx, totpSecret, `operator:${email}`), now],
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

/** Operators, newest first, a page at a time; whether each has set their credentials, never them. */
export async function listOperators(ctx: AppContext, query: PageQuery): Promise<Page<unknown>> {
  const { after, limit } = bounds(ctx, query);
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
  return pageOf(ctx, rows, limit, (row) => ({ createdAt: row.created_at, id: row.id }));
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

/** An administrator clears an operator's count of wrong tries (no failure locks an account). */
export async function unlockOperator(ctx: AppContext, by: Operator, id: string): Promise<void> {
  await ctx.db.tx(async (q) => {
    const { rows } = await q.query<{ failures: number }>(
      'SELECT failures FROM operators WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND');
    await q.query('UPDATE operators SET failures = 0, updated_at = $2 WHERE id = $1', [id, ctx.clock.now()]);
    await writeAudit(q, ctx, by, {
      action: 'operator_unlock',
      objectType: 'operator',
      objectId: id,
      before: rows[0],
      after: { failures: 0 },
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
    await endLinks(q, id, now);
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
