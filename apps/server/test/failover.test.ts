/**
 * What a server instance needs to live on a database that fails over (docs/operations.md):
 *  - /readyz (the database reachable and writable) beside /healthz (the process answers);
 *  - failover errors (a broken connection, a read-only node, a server shutting down) are recognised
 *    and answer 503 SERVICE_UNAVAILABLE with Retry-After in the contract's shape, never a 500;
 *  - request ids from the balancer are kept; metrics are served on their own listener only;
 *  - a list of hosts in DATABASE_URL is refused at start with one clear line;
 * and, as real processes on PostgreSQL (the PostgreSQL pass of `npm run test:api`):
 *  - connections terminated under load crash nothing, no answer is a 500, the ledger holds;
 *  - a database that turns read-only answers 503 and /readyz says not ready, and recovers;
 *  - an instance started while the database is unreachable waits and comes up when it appears;
 *  - two instances started at once on a fresh database both come up (migrations under their lock).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, Socket } from 'node:net';
import { errorMessage, formatAmount } from '@e-wallet/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { isDatabaseUnavailable, openPostgres } from '../src/db/client.ts';
import { haproxyErrorFile } from '../src/http/errors.ts';
import { serveMetrics } from '../src/metrics.ts';
import { PERSON } from './auth-helpers.ts';
import { call, freePort, freshDatabase, register, startServer } from './chaos/process.ts';
import { fundPhone, ledgerViolations } from './fund.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';

describe(`readiness, request ids and metrics (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers /readyz when the database takes writes, and /healthz without asking it', async () => {
    const ready = await server.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', database: databaseLabel });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect((await server.call('GET', '/healthz')).status).toBe(200);
  });

  it("keeps the balancer's X-Request-Id and answers it; replaces one that is not an id", async () => {
    const given = await server.call('GET', '/readyz', { headers: { 'x-request-id': 'AB12:cd.34-x_y' } });
    expect(given.headers['x-request-id']).toBe('AB12:cd.34-x_y');
    const odd = await server.call('GET', '/readyz', { headers: { 'x-request-id': 'a b\u00e9<script>' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await server.call('GET', '/readyz');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts requests by route pattern and provider calls, served on the metrics listener only', async () => {
    await server.call('GET', '/v2/wallet/transfers/abc');
    const phone = `+7977${String(Date.now()).slice(-7)}`;
    await server.call('POST', '/v2/wallet/auth/register', {
      body: { ...PERSON, phone },
    });
    const metrics = server.ctx.metrics!;
    const listener = await serveMetrics(metrics, '127.0.0.1', 0);
    try {
      const address = listener.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(
        /wallet_http_request_duration_seconds_count\{method="POST",route="\/v2\/wallet\/auth\/register",status="200"\} 1/,
      );
      expect(text).not.toContain('/v2/wallet/transfers/abc');
      expect(text).toMatch(/wallet_provider_calls_total\{provider="sms",method="send",outcome="ok"\} 1/);
      expect(text).toContain('wallet_event_streams_open 0');
      expect(text).toContain('wallet_process_cpu_seconds_total');
      if (databaseLabel === 'postgres') {
        expect(text).toMatch(/wallet_db_pool_connections\{state="total"\} \d+/);
        expect(text).toMatch(/wallet_ledger_rows_inserted_total\{table="ledger_entries"\} \d+/);
      }
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
    // Never on the public port.
    const pub = await server.call('GET', '/metrics');
    expect(pub.status).toBe(404);
    expect(isErrorShape(pub.body)).toBe(true);
  });
});

describe('failover errors are recognised', () => {
  it('as broken connections, read-only nodes and shutdowns, not as other failures', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['25006', '57P01', '57P02', '57P03', '08006', '08001', '53300'])
      expect(isDatabaseUnavailable(coded(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])
      expect(isDatabaseUnavailable(coded(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('x', { cause: coded('25006') }))).toBe(true);
    for (const code of ['23505', '23514', '40001', '42P01', '22P02'])
      expect(isDatabaseUnavailable(coded(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });

  it("HAProxy's own answers in deploy/errors are the contract's SERVICE_UNAVAILABLE", () => {
    for (const language of ['ru', 'en'] as const) {
      const file = readFileSync(
        new URL(`../../../deploy/errors/503-${language}.http`, import.meta.url),
        'utf8',
      );
      expect(file, 'npm run cluster -- errorfiles').toBe(haproxyErrorFile(language));
      const [head, body] = file.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1.1 503 /);
      expect(head).toContain('Retry-After: 2');
      expect(JSON.parse(body!)).toEqual({
        status: 'error',
        code: 'SERVICE_UNAVAILABLE',
        message: errorMessage('SERVICE_UNAVAILABLE', language),
      });
    }
  });

  it('a list of hosts in DATABASE_URL stops start-up with one clear line', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@10.0.0.1:5432,10.0.0.2:5432/wallet' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@10.0.0.1,10.0.0.2/wallet' })).toThrow(/one host/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p,w@10.0.0.1:6432/wallet' }).DATABASE_URL).toContain(
      '10.0.0.1',
    );
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_HOST).toBe('127.0.0.1');
  });
});

const enabled = process.env.TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;

/** Terminates every session on the database but ours, as a failover or a restart does. */
async function terminateSessions(adminUrl: string, database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

describe.skipIf(!enabled)('server processes while the database fails (PostgreSQL)', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;

  it('survives its connections being terminated under load: no 500, nothing half done', async () => {
    const database = await freshDatabase('ewallet_fo');
    const name = new URL(database.url).pathname.slice(1);
    const server = await startServer({
      databaseUrl: database.url,
      env: { SMS_PER_ADDRESS_PER_HOUR: '1000' },
    });
    const db = await openPostgres(database.url, 2);
    try {
      const people: { phone: string; token: string }[] = [];
      for (let i = 0; i < 6; i++) {
        const person = await register(server.base);
        await db.query(`UPDATE users SET identification_level = 'full' WHERE phone = $1`, [person.phone]);
        await fundPhone({ db, clock: { now: () => new Date() } }, person.phone, 1_000_000n);
        people.push(person);
      }
      const statuses = new Map<number, number>();
      const acked: string[] = [];
      const until = Date.now() + 6_000;
      const killer = (async () => {
        while (Date.now() < until) {
          await new Promise((r) => setTimeout(r, 400));
          await terminateSessions(adminUrl, name);
        }
      })();
      await Promise.all(
        people.map(async (me, i) => {
          const to = people[(i + 1) % people.length]!;
          while (Date.now() < until) {
            const key = randomUUID();
            const body = {
              phone: to.phone,
              amount: formatAmount(100n, 'RUB'),
              currency_code: 'RUB',
              pin: '1234',
            };
            for (;;) {
              const res = await call(server.base, 'POST', '/v2/wallet/transfer', {
                token: me.token,
                body,
                headers: { 'idempotency-key': key },
              });
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              if (res.status === 503) {
                expect(res.body).toMatchObject({ status: 'error', code: 'SERVICE_UNAVAILABLE' });
                continue;
              }
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              acked.push(res.body.receipt.id);
              break;
            }
          }
        }),
      );
      await killer;
      console.info(`terminated sessions under load: answers ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(server.child.exitCode).toBeNull();
      expect(statuses.get(500)).toBeUndefined();
      expect(statuses.get(0)).toBeUndefined();
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
      // Ready again once the pool has replaced its terminated connections.
      let ready = await call(server.base, 'GET', '/readyz');
      for (let i = 0; i < 50 && ready.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        ready = await call(server.base, 'GET', '/readyz');
      }
      expect(ready.status).toBe(200);
      expect(await ledgerViolations(db)).toEqual([]);
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM ledger_transfers WHERE kind = 'transfer'`,
      );
      expect(rows[0]!.n).toBe(acked.length);
      expect(new Set(acked).size).toBe(acked.length);
    } finally {
      await server.kill();
      await db.close();
      await database.drop();
    }
  }, 90_000);

  it('answers 503 with Retry-After while the database is read-only, and is not ready; then recovers', async () => {
    const database = await freshDatabase('ewallet_fo');
    const name = new URL(database.url).pathname.slice(1);
    const server = await startServer({ databaseUrl: database.url });
    try {
      const person = await register(server.base);
      await adminQuery(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      await terminateSessions(adminUrl, name);
      const ready = await fetch(`${server.base}/readyz`, { headers: { 'accept-language': 'en' } });
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('2');
      expect(await ready.json()).toEqual({
        status: 'error',
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is temporarily unavailable. Please try again in a few seconds',
      });
      const res = await fetch(`${server.base}/v2/wallet/top-up`, {
        method: 'POST',
        headers: {
          authorization: `Token ${person.token}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ amount: '10.00', currency_code: 'RUB' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      const body = await res.json();
      expect(body.status).toBe('error');
      expect(['SERVICE_UNAVAILABLE', 'PROVIDER_UNAVAILABLE']).toContain(body.code);
      expect((await call(server.base, 'GET', '/healthz')).status).toBe(200);

      await adminQuery(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await terminateSessions(adminUrl, name);
      expect((await call(server.base, 'GET', '/readyz')).status).toBe(200);
      const ok = await call(server.base, 'POST', '/v2/wallet/top-up', {
        token: person.token,
        body: { amount: '10.00', currency_code: 'RUB' },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(ok.status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await adminQuery(`ALTER DATABASE ${name} RESET default_transaction_read_only`).catch(() => {});
      await server.kill();
      await database.drop();
    }
  }, 60_000);

  it('waits at start while the database is unreachable and comes up when it appears', async () => {
    const database = await freshDatabase('ewallet_fo');
    const target = new URL(database.url);
    const port = await freePort();
    const url = new URL(database.url);
    url.port = String(port);
    const sockets = new Set<Socket>();
    let proxy: Server | undefined;
    // Nothing listens on `port` yet: the instance's first attempts are refused.
    let output = () => '';
    const starting = startServer({ databaseUrl: url.toString(), onSpawn: (o) => (output = o) });
    try {
      // Until the instance says it waits (a loaded machine starts Node slowly), then the database appears.
      for (let waited = 0; !output().includes('database unavailable'); waited += 100) {
        if (waited > 30_000) throw new Error(`no 'database unavailable' in 30 s: ${output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      proxy = createServer((socket) => {
        sockets.add(socket);
        const upstream = new Socket();
        upstream.connect(Number(target.port || 5432), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve));
      const server = await starting;
      expect((await call(server.base, 'GET', '/readyz')).status).toBe(200);
      expect(server.output()).toContain('database unavailable');
      await server.kill();
    } finally {
      await starting.then((s) => s.kill()).catch(() => {});
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(null)));
      await database.drop();
    }
  }, 60_000);

  it('two instances started at once on a fresh database both come up', async () => {
    const database = await freshDatabase('ewallet_fo');
    try {
      const [a, b] = await Promise.all([
        startServer({ databaseUrl: database.url }),
        startServer({ databaseUrl: database.url }),
      ]);
      try {
        expect((await call(a.base, 'GET', '/readyz')).status).toBe(200);
        expect((await call(b.base, 'GET', '/readyz')).status).toBe(200);
        const person = await register(a.base);
        expect((await call(b.base, 'GET', '/v2/wallet/auth/info', { token: person.token })).status).toBe(200);
      } finally {
        await a.kill();
        await b.kill();
      }
    } finally {
      await database.drop();
    }
  }, 90_000);
});
