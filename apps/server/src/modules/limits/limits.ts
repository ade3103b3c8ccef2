/**
 * Rate limits kept in the database, so they hold across every server instance (docs/architecture.md:
 * nothing may assume one process). Each key keeps a sliding log of its hits inside the window;
 * a hit is counted and checked in one SQL statement, so concurrent requests can never both take
 * the last slot (INSERT ... ON CONFLICT DO UPDATE locks the key's row and re-checks its latest version).
 */
import type { Queryable } from '../../db/client.ts';

export interface HitResult {
  /** True when the hit was counted; false when the key already had `max` hits in the window. */
  allowed: boolean;
  /** Hits inside the window, this one included when allowed. */
  count: number;
  /** When refused: whole seconds until the oldest hit leaves the window. 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Counts one hit of `key` at `now` unless the key already has `max` hits in the last
 * `windowSeconds`. A refused hit is not counted. Runs inside the caller's transaction when `q` is one.
 */
export async function hit(
  q: Queryable,
  key: string,
  windowSeconds: number,
  max: number,
  now: Date,
): Promise<HitResult> {
  if (!Number.isInteger(windowSeconds) || windowSeconds <= 0) throw new Error('windowSeconds must be > 0');
  if (!Number.isInteger(max) || max <= 0) throw new Error('max must be > 0');
  const { rows } = await q.query<{ count: number }>(
    `INSERT INTO rate_limits AS r (key, hits, expires_at)
     VALUES ($1, ARRAY[$2::timestamptz], $2::timestamptz + make_interval(secs => $3::integer))
     ON CONFLICT (key) DO UPDATE
       SET hits = ARRAY(SELECT h FROM unnest(r.hits) AS h
                        WHERE h > $2::timestamptz - make_interval(secs => $3::integer) ORDER BY h)
                  || $2::timestamptz,
           expires_at = GREATEST(r.expires_at, $2::timestamptz + make_interval(secs => $3::integer))
       WHERE (SELECT count(*) FROM unnest(r.hits) AS h
              WHERE h > $2::timestamptz - make_interval(secs => $3::integer)) < $4::integer
     RETURNING cardinality(hits)::integer AS count`,
    [key, now, windowSeconds, max],
  );
  if (rows[0]) return { allowed: true, count: rows[0].count, retryAfterSeconds: 0 };
  const oldest = await q.query<{ oldest: Date | null; count: number }>(
    `SELECT min(h) AS oldest, count(*)::integer AS count FROM rate_limits r, unnest(r.hits) AS h
     WHERE r.key = $1 AND h > $2::timestamptz - make_interval(secs => $3::integer)`,
    [key, now, windowSeconds],
  );
  const first = oldest.rows[0];
  const freeAt = (first?.oldest?.getTime() ?? now.getTime()) + windowSeconds * 1000;
  return {
    allowed: false,
    count: first?.count ?? max,
    retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)),
  };
}

/** The hits of `key` inside the window, and seconds until the oldest leaves it (0 when none). Counts nothing. */
export async function peek(
  q: Queryable,
  key: string,
  windowSeconds: number,
  now: Date,
): Promise<{ count: number; oldestLeavesInSeconds: number }> {
  const { rows } = await q.query<{ oldest: Date | null; count: number }>(
    `SELECT min(h) AS oldest, count(*)::integer AS count FROM rate_limits r, unnest(r.hits) AS h
     WHERE r.key = $1 AND h > $2::timestamptz - make_interval(secs => $3::integer)`,
    [key, now, windowSeconds],
  );
  const row = rows[0];
  if (!row?.oldest) return { count: 0, oldestLeavesInSeconds: 0 };
  return {
    count: row.count,
    oldestLeavesInSeconds: Math.max(
      1,
      Math.ceil((row.oldest.getTime() + windowSeconds * 1000 - now.getTime()) / 1000),
    ),
  };
}

/** Deletes keys whose every hit has left its window. Safe to run from any instance at any time. */
export async function purgeExpired(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM rate_limits WHERE expires_at <= $1', [now]);
  return rowCount;
}

/**
 * The client address as a limit key: IPv4 as is, IPv6 by its /64 prefix (one subscriber usually
 * holds a whole /64, so counting single IPv6 addresses would be no limit at all).
 */
export function addressKey(ip: string): string {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4mapped) return v4mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = ip.includes('::') ? 8 - headParts.length - tailParts.length : 0;
  const groups = [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
