/**
 * The in-memory session cache (src/sessions/cache.ts) never outlives a session: every token
 * below is read once first, so the next request would be answered from the cache if it could.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/sessions/tokens.ts';
import { registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer, usePostgres } from './helpers.ts';

describe(`session cache (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const info = (token: string) => server.call('GET', '/v2/wallet/auth/info', { token });
  const userIdOf = async (token: string) =>
    (await server.call('GET', '/v2/wallet', { token })).body.results[0].id;
  async function secondSession(token: string): Promise<string> {
    const { token: other } = await createSession(server.ctx.db, await userIdOf(token), {
      userAgent: 'second device',
      ip: '127.0.0.2',
      now: server.clock.now(),
    });
    expect((await info(other)).status).toBe(200);
    return other;
  }

  it('a signed-out token is refused by the very next request', async () => {
    const { token } = await registeredUser(server);
    expect((await info(token)).status).toBe(200);
    expect((await server.call('POST', '/v2/wallet/auth/logout', { token })).status).toBe(200);
    const after = await info(token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_TOKEN');
  });

  it('ending another session, one or all, refuses its token at once', async () => {
    const { token } = await registeredUser(server);
    const one = await secondSession(token);
    const sessions = await server.call('GET', '/v2/wallet/auth/sessions', { token });
    const oneId = sessions.body.results.find((s: { current: boolean }) => !s.current).id;
    expect((await server.call('DELETE', `/v2/wallet/auth/sessions/${oneId}`, { token })).status).toBe(200);
    expect((await info(one)).status).toBe(401);

    const two = await secondSession(token);
    const three = await secondSession(token);
    expect((await server.call('DELETE', '/v2/wallet/auth/sessions', { token })).status).toBe(200);
    expect((await info(two)).status).toBe(401);
    expect((await info(three)).status).toBe(401);
    expect((await info(token)).status).toBe(200);
  });

  it('a session ended elsewhere (another instance, an operator) is refused once its notice arrives', async () => {
    const { token } = await registeredUser(server);
    expect((await info(token)).status).toBe(200);
    const userId = await userIdOf(token);
    const revoke = 'UPDATE sessions SET revoked_at = now() WHERE user_id = $1';
    if (usePostgres) {
      // Another connection, as another server instance would write it.
      const other = new pg.Client({ connectionString: server.config.DATABASE_URL });
      await other.connect();
      await other.query(revoke, [userId]);
      await other.end();
    } else {
      // PGlite has one process; a write around the server's own code still notifies.
      await server.ctx.db.query(revoke, [userId]);
    }
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 5_000) {
      status = (await info(token)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it.runIf(usePostgres)('while the notices cannot be heard, nothing is answered from the cache', async () => {
    const { token } = await registeredUser(server);
    expect((await info(token)).status).toBe(200);
    const userId = await userIdOf(token);
    const other = new pg.Client({ connectionString: server.config.DATABASE_URL });
    await other.connect();
    try {
      // The listening connection dies (a restart, a network cut); a revocation happens meanwhile.
      // (The instance's other listeners, of the live wallet's events, have connections of their own.)
      const { rowCount } = await other.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN "sessions_changed"'`,
      );
      expect(rowCount).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [userId]);
      expect((await info(token)).status).toBe(401);
    } finally {
      await other.end();
    }
    // It listens again after a pause, and the cache serves again: a revocation that sends no notice
    // (the trigger disabled, which only an operator could do) is not seen, so that answer came from memory.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { token: fresh } = await registeredUser(server);
    expect((await info(fresh)).status).toBe(200);
    const freshUserId = await userIdOf(fresh);
    const silent = new pg.Client({ connectionString: server.config.DATABASE_URL });
    await silent.connect();
    try {
      await silent.query('BEGIN');
      await silent.query('ALTER TABLE sessions DISABLE TRIGGER sessions_changed');
      await silent.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [freshUserId]);
      await silent.query('ALTER TABLE sessions ENABLE TRIGGER sessions_changed');
      await silent.query('COMMIT');
    } finally {
      await silent.end();
    }
    expect((await info(fresh)).status).toBe(200);
  });

  it('a session in use is touched at most once a minute, never back in time', async () => {
    const { token } = await registeredUser(server);
    const userId = await userIdOf(token);
    const lastUsed = async () =>
      (
        await server.ctx.db.query<{ last_used_at: Date }>(
          'SELECT last_used_at FROM sessions WHERE user_id = $1',
          [userId],
        )
      ).rows[0]!.last_used_at.getTime();
    // Used within the week, it lives on past a week since it was last touched.
    server.clock.advance(6 * 86_400_000);
    const touchedAt = server.clock.now().getTime();
    expect((await info(token)).status).toBe(200);
    expect(await lastUsed()).toBe(touchedAt);
    server.clock.advance(2 * 86_400_000);
    expect((await info(token)).status).toBe(200);
    server.clock.advance(30_000);
    expect((await info(token)).status).toBe(200);
    expect(await lastUsed()).toBe(touchedAt + 2 * 86_400_000);
    // Another instance, whose clock runs ahead, touched it later than this one's next touch would:
    // the touch keeps the later time (moved back, it would read as idling and drop cached sessions).
    const ahead = new Date(server.clock.now().getTime() + 3_600_000);
    await server.ctx.db.query('UPDATE sessions SET last_used_at = $2 WHERE user_id = $1', [userId, ahead]);
    server.clock.advance(120_000);
    expect((await info(token)).status).toBe(200);
    expect(await lastUsed()).toBe(ahead.getTime());
  });

  it('an idle session ends on time although it was cached', async () => {
    const { token } = await registeredUser(server);
    expect((await info(token)).status).toBe(200);
    server.clock.advance(7 * 86_400_000 + 1_000);
    expect((await info(token)).status).toBe(401);
  });
});
