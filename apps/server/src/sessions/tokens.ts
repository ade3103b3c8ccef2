/**
 * Sign-in sessions. A token is 256 random bits; only its SHA-256 is stored. A session expires
 * 30 days after sign-in, or after 7 days unused, and is revoked on logout
 * (docs/decisions/security-rules.md#security-baselines).
 */
import { hash, randomBytes } from 'node:crypto';
import type { Language } from '@e-wallet/contract';
import { batchedRead } from '../db/batch.ts';
import type { Queryable } from '../db/client.ts';
import { cachedSession, type SessionRow, sessionsChanging, sessionTouched } from './cache.ts';

export const SESSION_LIFETIME_DAYS = 30;
export const SESSION_IDLE_DAYS = 7;
/** last_used_at is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_AFTER_MS = 60_000;

export interface SessionRef {
  sessionId: string;
  userId: string;
}

export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

export async function createSession(
  q: Queryable,
  userId: string,
  meta: { userAgent: string; ip: string; now: Date; language?: Language },
): Promise<{ token: string; sessionId: string }> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(meta.now.getTime() + SESSION_LIFETIME_DAYS * 86_400_000);
  // The language the person signs in with is theirs for what others' actions send them (an SMS to a
  // trusted person): kept in the same statement (docs/decisions/language-and-format.md#a-persons-language).
  const { rows } = await q.query<{ id: string }>(
    `WITH person AS (
       UPDATE users SET language = $7 WHERE id = $1 AND $7::text IS NOT NULL AND language <> $7
     )
     INSERT INTO sessions (user_id, token_hash, user_agent, ip, created_at, last_used_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`,
    [
      userId,
      hashToken(token),
      meta.userAgent.slice(0, 300),
      meta.ip.slice(0, 64),
      meta.now,
      expires,
      meta.language ?? null,
    ],
  );
  return { token, sessionId: rows[0]!.id };
}

/** Unrevoked sessions by token hash (hex), many tokens in one query (a join on the unique index). */
const sessionsByHash = batchedRead<string, SessionRow>(async (q, hashes) => {
  const { rows } = await q.query<SessionRow & { hash: string }>(
    `SELECT h.hash, s.id, s.user_id, s.last_used_at, s.expires_at
     FROM unnest($1::text[]) AS h (hash) JOIN sessions s ON s.token_hash = decode(h.hash, 'hex')
     WHERE s.revoked_at IS NULL`,
    [hashes],
  );
  return new Map(rows.map(({ hash: key, ...row }) => [key, row]));
});

/**
 * The live session of a token, or null when it is unknown, expired, idle too long or revoked. On the
 * database itself the read goes through this instance's session cache (./cache.ts) and is batched
 * with other requests' reads.
 */
export async function findSession(q: Queryable, token: string, now: Date): Promise<SessionRef | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  // Every authenticated request hashes its token: the one-shot hash, a third of createHash's cost.
  const tokenHash = hash('sha256', token, 'hex');
  const row = await cachedSession(q, tokenHash, () => sessionsByHash(q, tokenHash));
  if (!row) return null;
  const idleSince = now.getTime() - SESSION_IDLE_DAYS * 86_400_000;
  if (row.expires_at.getTime() <= now.getTime() || row.last_used_at.getTime() <= idleSince) return null;
  if (now.getTime() - row.last_used_at.getTime() > TOUCH_AFTER_MS) {
    // Marked first, so this instance's concurrent requests of the session do not touch it again;
    // never moved back, which would read as an idle session and drop every instance's cached ones.
    sessionTouched(q, tokenHash, now);
    await q.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at < $2', [row.id, now]);
  }
  return { sessionId: row.id, userId: row.user_id };
}

/** Ends one live session of the user (false when there is none with that id: gone, or another's). */
export async function revokeSession(
  q: Queryable,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  sessionsChanging(q, userId);
  const { rowCount } = await q.query(
    'UPDATE sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3',
    [sessionId, userId, now],
  );
  return rowCount > 0;
}

export async function revokeAllSessions(
  q: Queryable,
  userId: string,
  now: Date,
  except?: string,
): Promise<number> {
  sessionsChanging(q, userId);
  const { rowCount } = await q.query(
    `UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [userId, now, except ?? null],
  );
  return rowCount;
}
