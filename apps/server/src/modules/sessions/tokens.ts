/**
 * Sign-in sessions. A token is 256 random bits; only its SHA-256 is stored. A session expires
 * 30 days after sign-in, or after 7 days unused, and is revoked on logout (decisions.md section 7).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.ts';

export const SESSION_LIFETIME_DAYS = 30;
export const SESSION_IDLE_DAYS = 7;
/** last_used_at is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_AFTER_MS = 60_000;

export interface SessionRef {
  sessionId: string;
  userId: string;
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export async function createSession(
  q: Queryable,
  userId: string,
  meta: { userAgent: string; ip: string; now: Date },
): Promise<{ token: string; sessionId: string }> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(meta.now.getTime() + SESSION_LIFETIME_DAYS * 86_400_000);
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO sessions (user_id, token_hash, user_agent, ip, created_at, last_used_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`,
    [userId, hashToken(token), meta.userAgent.slice(0, 300), meta.ip.slice(0, 64), meta.now, expires],
  );
  return { token, sessionId: rows[0]!.id };
}

/** The live session of a token, or null when it is unknown, expired, idle too long or revoked. */
export async function findSession(q: Queryable, token: string, now: Date): Promise<SessionRef | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const idleSince = new Date(now.getTime() - SESSION_IDLE_DAYS * 86_400_000);
  const { rows } = await q.query<{ id: string; user_id: string; last_used_at: Date }>(
    `SELECT id, user_id, last_used_at FROM sessions
     WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_used_at > $3`,
    [hashToken(token), now, idleSince],
  );
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.last_used_at.getTime() > TOUCH_AFTER_MS) {
    await q.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [row.id, now]);
  }
  return { sessionId: row.id, userId: row.user_id };
}

export async function revokeSession(q: Queryable, sessionId: string, now: Date): Promise<void> {
  await q.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, now]);
}

export async function revokeAllSessions(
  q: Queryable,
  userId: string,
  now: Date,
  except?: string,
): Promise<number> {
  const { rowCount } = await q.query(
    `UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [userId, now, except ?? null],
  );
  return rowCount;
}
