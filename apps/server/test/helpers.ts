/**
 * Test harness: a real server instance per test file on a real database, called with `inject`.
 * TEST_DB=postgres (with TEST_DATABASE_URL) gives each file a fresh PostgreSQL database;
 * otherwise an in-memory PGlite. Time is a test clock that tests move forward.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { Clock } from '../src/context.ts';
import { createContext, type RunningContext } from '../src/create-context.ts';
import { levelRules, levelRulesJson } from '../src/policy/levels.ts';

export const usePostgres = process.env.TEST_DB === 'postgres';
export const databaseLabel = usePostgres ? 'postgres' : 'pglite';

export class TestClock implements Clock {
  #now: number;
  constructor(start = Date.now()) {
    this.#now = start;
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(date: Date): void {
    this.#now = date.getTime();
  }
}

/** The test clock following real time, for jobs whose due times are the database's. */
export class RealClock extends TestClock {
  override now(): Date {
    return new Date();
  }
}

export interface TestServer {
  app: FastifyInstance;
  ctx: RunningContext;
  clock: TestClock;
  config: Config;
  /** A JSON call; answers the status and parsed body. */
  call(
    method: InjectOptions['method'],
    url: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** A JSON call to `app` by `inject`, as every test server answers it. */
export function jsonCaller(app: FastifyInstance): TestServer['call'] {
  return async (method, url, { body, token, headers = {} } = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Token ${token}` } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    let parsed: unknown = response.body;
    try {
      parsed = JSON.parse(response.body);
    } catch {}
    return { status: response.statusCode, body: parsed, headers: response.headers };
  };
}

/** A new, empty PostgreSQL database beside TEST_DATABASE_URL's, and how to drop it. */
export async function freshDatabase(
  prefix = 'ewallet_t',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startTestServer(
  options: { env?: Record<string, string>; clock?: TestClock } = {},
): Promise<TestServer> {
  const database = usePostgres ? await freshDatabase() : null;
  const config = loadConfig({
    WALLET_ENV: 'test',
    LOG_LEVEL: 'silent',
    SANDBOX_PAYOUT_DELAY_MS: '0',
    ...(database ? { DATABASE_URL: database.url, DB_POOL_SIZE: '10' } : {}),
    ...options.env,
  });
  const clock = options.clock ?? new TestClock();
  const ctx = await createContext(config, { clock, dataDir: 'memory' });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    clock,
    config,
    call: jsonCaller(app),
    async close() {
      await app.close();
      await ctx.stop();
      await database?.drop();
    },
  };
}

/** A second server context on a test server's PostgreSQL database: another instance of the wallet. */
export function secondContext(server: TestServer): Promise<RunningContext> {
  const config = loadConfig({
    WALLET_ENV: 'test',
    LOG_LEVEL: 'silent',
    SANDBOX_PAYOUT_DELAY_MS: '0',
    DATABASE_URL: server.config.DATABASE_URL!,
    DB_POOL_SIZE: '5',
  });
  return createContext(config, { clock: server.clock });
}

let phoneCounter = 0;
/** A phone number unique within this test process. */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = `${process.pid % 1000}${phoneCounter}`.padStart(7, '0').slice(-7);
  return `+7999${tail}`;
}

/** Expects the contract's error shape with a Russian (or given language) message. */
export function isErrorShape(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return (
    b.status === 'error' &&
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    b.message.length > 0
  );
}

/** A configuration with other identification levels, as IDENTIFICATION_LIMITS would give them. */
export function withLevels(config: Config, overrides: string): Config {
  const levels = levelRules(overrides);
  return { ...config, IDENTIFICATION_LIMITS: overrides, levels, levelRulesJson: levelRulesJson(levels) };
}
