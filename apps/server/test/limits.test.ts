import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, hit, purgeExpired } from '../src/modules/limits/limits.ts';
import { databaseLabel, startTestServer, type TestServer, usePostgres } from './helpers.ts';

describe(`rate limits in the database (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

  it('allows max hits in any window of the given length (sliding, not fixed)', async () => {
    const db = server.ctx.db;
    const results = [];
    for (const t of [0, 10, 20]) results.push(await hit(db, 'test:sliding', 60, 3, at(t)));
    expect(results.map((r) => [r.allowed, r.count])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
    ]);
    const refused = await hit(db, 'test:sliding', 60, 3, at(30));
    expect(refused).toEqual({ allowed: false, count: 3, retryAfterSeconds: 30 });
    // A refused hit is not counted: at 60 s the first hit has left, so exactly one slot is free.
    expect((await hit(db, 'test:sliding', 60, 3, at(59))).allowed).toBe(false);
    expect((await hit(db, 'test:sliding', 60, 3, at(60))).allowed).toBe(true);
    expect((await hit(db, 'test:sliding', 60, 3, at(61))).retryAfterSeconds).toBe(9);
    // No boundary burst: a fixed window starting at 60 would allow 3 more here.
    expect((await hit(db, 'test:sliding', 60, 3, at(65))).allowed).toBe(false);
    expect((await hit(db, 'test:sliding', 60, 3, at(70))).allowed).toBe(true);
  });

  it('keeps keys apart and forgets old hits', async () => {
    const db = server.ctx.db;
    expect((await hit(db, 'test:a', 3600, 1, at(0))).allowed).toBe(true);
    expect((await hit(db, 'test:b', 3600, 1, at(0))).allowed).toBe(true);
    expect((await hit(db, 'test:a', 3600, 1, at(10))).allowed).toBe(false);
    expect((await hit(db, 'test:a', 3600, 1, at(3600))).allowed).toBe(true);
    const { rows } = await db.query<{ n: number }>(
      "SELECT cardinality(hits)::integer AS n FROM rate_limits WHERE key = 'test:a'",
    );
    expect(rows[0]!.n).toBe(1);
    expect(await purgeExpired(db, at(3600 + 3599))).toBeGreaterThanOrEqual(1);
    expect((await db.query("SELECT 1 FROM rate_limits WHERE key = 'test:b'")).rows).toEqual([]);
    expect((await db.query("SELECT 1 FROM rate_limits WHERE key = 'test:a'")).rows).toHaveLength(1);
  });

  it('refuses nonsense windows and caps', async () => {
    await expect(hit(server.ctx.db, 'test:x', 0, 1, at(0))).rejects.toThrow();
    await expect(hit(server.ctx.db, 'test:x', 60, 0, at(0))).rejects.toThrow();
  });

  it.runIf(usePostgres)('never lets concurrent hits past the cap (one statement, row lock)', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 40 }, () => hit(server.ctx.db, 'test:concurrent', 3600, 7, at(100))),
    );
    expect(attempts.filter((a) => a.allowed)).toHaveLength(7);
    expect(
      attempts
        .filter((a) => a.allowed)
        .map((a) => a.count)
        .sort((x, y) => x - y),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('address keys', () => {
  it('counts IPv4 by address and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
