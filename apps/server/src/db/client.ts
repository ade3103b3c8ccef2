/**
 * The database behind one small interface: embedded PGlite (PostgreSQL in WebAssembly) by default,
 * a PostgreSQL server when DATABASE_URL is set. Same SQL, same migrations, same results:
 * BIGINT comes back as bigint, timestamps as Date.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends object = Row>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: T[]; rowCount: number }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `callback` once what was written here is committed: at the end of the transaction (never,
   * if it rolls back), or at once on the database itself, where each statement commits on its own.
   */
  afterCommit(callback: () => void): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction. On PostgreSQL a serialization failure or deadlock is retried
   * with the whole callback, so `work` must be free of outside side effects.
   */
  tx<T>(
    work: (q: Queryable) => Promise<T>,
    options?: { isolation?: 'read committed' | 'serializable' },
  ): Promise<T>;
  /**
   * Follows NOTIFY on `channel`, from every instance on this database: `notice` gets each payload.
   * `lost` is called when notices may be missed (the listening connection broke), `ready` once
   * listening (again): a reader that caches on the strength of notices trusts its cache only between
   * `ready` and `lost`. Stops with `close`.
   */
  listen(channel: string, listener: ChannelListener): Promise<void>;
  /**
   * The embedded database itself (PGlite only), for the job queue's PGlite adapter
   * (modules/schedules/jobs.ts); on PostgreSQL the queue has its own pool.
   */
  readonly pglite?: PGlite;
  /** The connection pool's figures (PostgreSQL only), for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * What this server instance keeps beside this database (hints, batched reads, the session cache),
   * each under its owner's key: made on first use with `remembered`, gone with the Db.
   */
  readonly memory: Map<symbol, unknown>;
  close(): Promise<void>;
}

/** The value an owner keeps under `key` in the database's memory, made on first use. */
export function remembered<T>(db: Db, key: symbol, make: () => T): T {
  if (!db.memory.has(key)) db.memory.set(key, make());
  return db.memory.get(key) as T;
}

export interface ChannelListener {
  notice(payload: string): void;
  ready(): void;
  lost(): void;
}

/** Whether `q` is the database itself rather than one transaction on it. */
export function isDb(q: Queryable): q is Db {
  return 'tx' in q;
}

/** PostgreSQL error codes we act on. */
export const PG = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlock: '40P01',
} as const;

/**
 * Whether an error says the database is out of reach or not (yet) writable, as while it fails over:
 * a broken or refused connection, a server shutting down or starting (57P01-57P03, class 08), or a
 * standby that answers read-only (25006, a promoted node for a moment after promotion). The request
 * may be repeated: its transaction rolled back, or (a connection lost at COMMIT) committed whole, and
 * a money call repeated with its idempotency key then answers what it did.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const { code: sysCode, message } = current as { code?: unknown; message?: unknown };
    if (typeof sysCode === 'string' && NETWORK_CODES.has(sysCode)) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  const code = pgCode(error);
  return (
    !!code && (code.startsWith('08') || code === '25006' || /^57P0[1-3]$/.test(code) || code === '53300')
  );
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** node-postgres's own words for a connection that broke or never came. */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection ended unexpectedly)/;

/** The PostgreSQL error code of an error from either driver. */
export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const INT8 = 20;

function bigintParam(value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Every session plans a prepared statement once, for any parameters, the named statements here and
 * those inside the PL/pgSQL functions alike: the app's statements look rows up by key or walk one
 * user's index range, so a plan made without the values is the same plan (docs/performance.md#plans-made-once).
 */
const PLAN_CACHE_MODE = 'force_generic_plan';

/**
 * Costs for data in memory or on an SSD (PostgreSQL's default, 4, is for spinning disks, and made
 * generic plans scan small tables instead of probing their primary keys).
 */
const RANDOM_PAGE_COST = 1.1;

export async function openPglite(dataDir: string | 'memory'): Promise<Db> {
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  // Refused before PGlite touches a folder another live process has open.
  const release = dataDir === 'memory' ? () => {} : lockDataDir(dataDir);
  // One options object: PGlite drops the second argument when the first (the data dir) is undefined,
  // which left in-memory databases answering BIGINT as a lossy number.
  const lite = new PGlite({
    ...(dataDir === 'memory' ? {} : { dataDir }),
    parsers: { [INT8]: (value: string) => BigInt(value) },
    serializers: { [INT8]: (value: unknown) => String(value) },
  });
  try {
    await lite.waitReady;
  } catch (error) {
    release();
    throw error;
  }
  await lite.exec(`SET plan_cache_mode = ${PLAN_CACHE_MODE}; SET random_page_cost = ${RANDOM_PAGE_COST}`);
  const queryable = (target: PGlite | Transaction, committed?: (() => void)[]): Queryable => ({
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(sql, params.map(bigintParam));
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    afterCommit: (callback) => (committed ? committed.push(callback) : callback()),
  });
  return {
    kind: 'pglite',
    ...queryable(lite),
    memory: new Map(),
    // PGlite is one session: its transactions run one at a time, so none can conflict.
    async tx(work) {
      const committed: (() => void)[] = [];
      const result = await lite.transaction((t) => work(queryable(t, committed)));
      for (const callback of committed) callback();
      return result;
    },
    pglite: lite,
    // One process owns the data directory: its notices never cross a network, so none are lost.
    async listen(channel, listener) {
      await lite.listen(channel, (payload) => listener.notice(payload));
      listener.ready();
    },
    close: async () => {
      try {
        await lite.close();
      } finally {
        release();
      }
    },
  };
}

export async function openPostgres(url: string, poolSize: number): Promise<Db> {
  const typeOverrides = new pg.TypeOverrides();
  typeOverrides.setTypeParser(INT8, (value: string) => BigInt(value));
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: typeOverrides,
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE} -c random_page_cost=${RANDOM_PAGE_COST}`,
    // A database that does not answer (failing over) fails the request in seconds, not never.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may one that breaks while checked out (the primary dies mid-transaction): without a listener
  // its 'error' event is thrown. The query in flight fails on its own, and the client is discarded.
  pool.on('connect', (client) => client.on('error', () => {}));
  // Named prepared statements: each connection parses and plans a statement once, then only binds
  // and executes it (a ledger transfer's statements are planned once per connection, not per call).
  // Texts are the code's own SQL with $n parameters; past a bound (dynamic texts) they run unnamed.
  const names = new Map<string, string>();
  const statementName = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (!name && names.size < 2000) {
      name = `s${names.size + 1}`;
      names.set(sql, name);
    }
    return name;
  };
  const queryable = (target: pg.Pool | pg.PoolClient, committed?: (() => void)[]): Queryable => ({
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<T>({
        text: sql,
        values: params.map(bigintParam) as unknown[],
        // Without parameters the simple protocol stays (a script of several statements is allowed there).
        name: params.length > 0 ? statementName(sql) : undefined,
      });
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.query(sql);
    },
    afterCommit: (callback) => (committed ? committed.push(callback) : callback()),
  });
  const closing = new AbortController();
  const db: Db = {
    kind: 'postgres',
    ...queryable(pool),
    memory: new Map(),
    async tx(work, options) {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let broken: unknown;
        try {
          await client.query(
            options?.isolation === 'serializable' ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN',
          );
          const committed: (() => void)[] = [];
          const result = await work(queryable(client, committed));
          await client.query('COMMIT');
          for (const callback of committed) callback();
          return result;
        } catch (error) {
          // A connection the database dropped is not handed out again.
          if (isDatabaseUnavailable(error)) broken = error;
          else await client.query('ROLLBACK').catch(() => {});
          const code = pgCode(error);
          const retryable = code === PG.serializationFailure || code === PG.deadlock;
          if (!retryable || attempt >= 8) throw error;
          await new Promise((resolve) => setTimeout(resolve, randomInt(Math.min(50, 2 ** attempt) + 1)));
        } finally {
          client.release(broken instanceof Error ? broken : broken ? true : undefined);
        }
      }
    },
    listen: (channel, listener) => listenPostgres(url, channel, listener, closing.signal),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => {
      closing.abort();
      return pool.end();
    },
  };
  await db.query('SELECT 1');
  return db;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). When it breaks the
 * listener hears `lost`, and it reconnects after a pause until the database is closed.
 */
async function listenPostgres(
  url: string,
  channel: string,
  listener: ChannelListener,
  closing: AbortSignal,
): Promise<void> {
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    let broken = false;
    const stop = () => {
      broken = true;
      listener.lost();
      client.end().catch(() => {});
    };
    const broke = () => {
      if (broken) return;
      closing.removeEventListener('abort', stop);
      stop();
      if (!closing.aborted) setTimeout(() => void connect().catch(() => {}), 1000).unref();
    };
    client.on('error', broke);
    client.on('end', broke);
    client.on('notification', (message) => listener.notice(message.payload ?? ''));
    closing.addEventListener('abort', stop, { once: true });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      broke();
      throw error;
    }
    if (!broken) listener.ready();
  };
  await connect();
}

export function openDb(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 20)
    : openPglite(options.dataDir);
}
