/**
 * What a payment costs in units every machine agrees on, beside peers counted the same way in the
 * same run (docs/performance.md, "Machine-independent costs"): WAL bytes and bytes stored per
 * operation, rows and index entries written, SQL statements per call, PostgreSQL instructions per
 * call, and the server's CPU per call beside a bare one-round-trip route's.
 *
 * Everything that writes runs in a PostgreSQL cluster of the bench's own (bench/cluster.ts), with
 * nothing else writing there and autovacuum off: each system in its own database, a warm-up, a
 * CHECKPOINT (so each page first touched writes its image, as in production), then `calls`
 * sequential calls between two readings of `pg_current_wal_lsn` and `pg_database_size`. pg_waldump
 * splits the WAL into records and page images and counts the rows and index entries written;
 * pg_stat_statements counts the statements the calls sent.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { type PrivateCluster, pgBin, privateCluster, runAsPostgres } from './cluster.ts';
import { type DoorInstructions, doorInstructions } from './door-instructions.ts';
import { type BenchUser, call, PIN, p2pTransfers, prepareUsers, walletGet } from './http.ts';
import { benchTransfer, seedAccounts } from './ledger.ts';
import {
  freePort,
  type LoadResult,
  load,
  log,
  type Options,
  ROOT,
  randomPair,
  run,
  seeded,
  startProcess,
  startServer,
} from './lib.ts';

/** People (and accounts) of every ledger counted: the same in quick and full runs, so the figures are too. */
export const PEOPLE = 1000;

const SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=top',
  // Nothing writes but the calls counted: no vacuum of its own, no checkpoint inside a count.
  'autovacuum=off',
  'max_wal_size=8GB',
  'checkpoint_timeout=1h',
  // The disk is shared with other work; WAL's bytes are the same with or without its flushes.
  'fsync=off',
];

export interface Written {
  calls: number;
  /** WAL per call (pg_current_wal_lsn), page images included. */
  walBytes: number;
  /** Of which the records themselves, and the images of pages first touched since the CHECKPOINT. */
  walRecordBytes: number;
  walImageBytes: number;
  /** Growth of pg_database_size per call: heap, indexes, TOAST. */
  storedBytes: number;
  /** Heap rows inserted and updated (HOT or not), index entries inserted, per call (pg_waldump). */
  rowsInserted: number;
  rowsUpdated: number;
  indexEntries: number;
  /** Top-level statements per call (pg_stat_statements), and the most frequent ones' texts. */
  statements: number;
  /** The job system's polls in the same time (they run on a clock, not per call), in all. */
  jobPolls: number;
  /**
   * Sessions read again and touched per call: a session stays in an instance's memory a minute
   * (sessions/cache.ts), so these come with time, and a slower run has more of them per call.
   */
  sessionStatements: number;
  topStatements: { calls: number; query: string }[];
  /** Growth per call of each table and index that grew, in bytes. */
  relations: Record<string, number>;
}

const perCall = (value: number, calls: number) => Math.round((value / calls) * 10) / 10;

/** The WAL between two positions by record type: count, record bytes, page-image bytes. */
function walByType(cluster: PrivateCluster, from: string, to: string) {
  // Calls that wrote nothing (a read) leave no WAL to read: pg_waldump would find no record.
  let out = '';
  if (from !== to)
    try {
      out = runAsPostgres(join(pgBin(), 'pg_waldump'), [
        '-p',
        join(cluster.dir, 'pg_wal'),
        '-s',
        from,
        '-e',
        to,
        '--stats=record',
      ]);
    } catch (error) {
      log(`costs: WAL from ${from} to ${to} not split: ${(error as Error).message.split('\n')[0]}`);
    }
  const types = new Map<string, { n: number; record: number; image: number }>();
  for (const line of out.split('\n')) {
    const m = /^(\S+\/\S+)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(\s*[\d.]+\)\s+(\d+)\s+\(/.exec(line);
    if (m) types.set(m[1]!, { n: Number(m[2]), record: Number(m[3]), image: Number(m[4]) });
  }
  const sum = (match: RegExp, field: 'n' | 'record' | 'image') =>
    [...types].filter(([type]) => match.test(type)).reduce((total, [, t]) => total + t[field], 0);
  return {
    record: sum(/./, 'record'),
    image: sum(/./, 'image'),
    inserted: sum(/^Heap2?\/(INSERT|MULTI_INSERT)/, 'n'),
    updated: sum(/^Heap\/(HOT_)?UPDATE/, 'n'),
    indexEntries: sum(/^Btree\/INSERT_(LEAF|UPPER|POST)/, 'n'),
  };
}

/**
 * Counts what `calls` sequential calls of `work` write to `database` and send to it, after `warm`
 * calls and a CHECKPOINT.
 */
async function counted(
  cluster: PrivateCluster,
  database: string,
  options: { warm: number; calls: number },
  work: (i: number) => Promise<unknown>,
): Promise<Written> {
  for (let i = 0; i < options.warm; i++) await work(i);
  const admin = new pg.Client({ connectionString: cluster.url() });
  const target = new pg.Client({ connectionString: cluster.url(database) });
  await admin.connect();
  await target.connect();
  try {
    const relations = async () =>
      new Map(
        (
          await target.query<{ name: string; bytes: string }>(
            `SELECT c.relname AS name, pg_relation_size(c.oid)::text AS bytes FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'i', 't')`,
          )
        ).rows.map((r) => [r.name, Number(r.bytes)]),
      );
    const position = async () =>
      (
        await admin.query<{ lsn: string; size: string }>(
          'SELECT pg_current_wal_lsn()::text AS lsn, pg_database_size($1)::text AS size',
          [database],
        )
      ).rows[0]!;
    await admin.query('CHECKPOINT');
    const sizesBefore = await relations();
    const before = await position();
    await admin.query('SELECT pg_stat_statements_reset()');
    for (let i = 0; i < options.calls; i++) await work(options.warm + i);
    const after = await position();
    const { rows: statements } = await admin.query<{ calls: string; query: string }>(
      `SELECT s.calls::text AS calls, s.query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1 ORDER BY s.calls DESC`,
      [database],
    );
    // The job system's polls and upkeep come with time, whatever the calls do: counted apart (a job
    // a call sends, an INSERT, stays the call's).
    const isPoll = (query: string) => !/^\s*INSERT\b/i.test(query) && /\bpgboss\./.test(query);
    const polls = statements.filter((s) => isPoll(s.query));
    const isSession = (query: string) => /\bsessions\b/.test(query);
    const sessions = statements.filter((s) => !isPoll(s.query) && isSession(s.query));
    const own = statements.filter((s) => !isPoll(s.query) && !isSession(s.query));
    const callsOf = (list: typeof statements) => list.reduce((total, s) => total + Number(s.calls), 0);
    const sizesAfter = await relations();
    const { rows: lsn } = await admin.query<{ bytes: string }>(
      'SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::text AS bytes',
      [before.lsn, after.lsn],
    );
    const wal = walByType(cluster, before.lsn, after.lsn);
    const grown = [...sizesAfter]
      .map(([name, bytes]) => [name, perCall(bytes - (sizesBefore.get(name) ?? 0), options.calls)] as const)
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]);
    return {
      calls: options.calls,
      walBytes: perCall(Number(lsn[0]!.bytes), options.calls),
      walRecordBytes: perCall(wal.record, options.calls),
      walImageBytes: perCall(wal.image, options.calls),
      storedBytes: perCall(Number(after.size) - Number(before.size), options.calls),
      rowsInserted: perCall(wal.inserted, options.calls),
      rowsUpdated: perCall(wal.updated, options.calls),
      indexEntries: perCall(wal.indexEntries, options.calls),
      statements: perCall(callsOf(own), options.calls),
      jobPolls: callsOf(polls),
      sessionStatements: perCall(callsOf(sessions), options.calls),
      topStatements: own
        .slice(0, 6)
        .map((s) => ({ calls: Number(s.calls), query: s.query.replace(/\s+/g, ' ').slice(0, 160) })),
      relations: Object.fromEntries(grown),
    };
  } finally {
    await admin.end();
    await target.end();
  }
}

async function createDatabase(cluster: PrivateCluster, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

/** A bare ledger transfer (the ledger module's `transfer`, one statement) between random accounts. */
async function ledgerTransfers(cluster: PrivateCluster, counts: { warm: number; calls: number }) {
  await createDatabase(cluster, 'ledger');
  const db = await openPostgres(cluster.url('ledger'), 1);
  try {
    await migrate(db);
    const accounts = await seedAccounts(db, PEOPLE, 10_000_000n);
    await db.exec('ANALYZE');
    const random = seeded(11);
    return await counted(cluster, 'ledger', counts, () => benchTransfer(db, ...randomPair(random, accounts)));
  } finally {
    await db.close();
  }
}

/** pgledger's transfer (bench/peers/pgledger, its SQL as published) between random accounts of its own. */
async function pgledgerTransfers(cluster: PrivateCluster, counts: { warm: number; calls: number }) {
  await createDatabase(cluster, 'pgledger');
  const client = new pg.Client({ connectionString: cluster.url('pgledger') });
  await client.connect();
  try {
    const peer = join(ROOT, 'bench/peers/pgledger');
    // In the order its own `just dbload` loads them.
    for (const file of [
      'vendor/scoville-pgsql-ulid/ulid-to-uuid.sql',
      'vendor/scoville-pgsql-ulid/uuid-to-ulid.sql',
      'pgledger.sql',
    ])
      await client.query(readFileSync(join(peer, file), 'utf8'));
    const { rows } = await client.query<{ id: string }>(
      `SELECT a.id FROM generate_series(1, $1::int) g, LATERAL pgledger_create_account('bench-' || g, 'RUB') a`,
      [PEOPLE],
    );
    const accounts = rows.map((r) => r.id);
    await client.query('ANALYZE');
    const random = seeded(11);
    return await counted(cluster, 'pgledger', counts, () => {
      const [from, to] = randomPair(random, accounts);
      return client.query({
        name: 'transfer',
        text: 'SELECT id FROM pgledger_create_transfer($1, $2, 1.00)',
        values: [from, to],
      });
    });
  } finally {
    await client.end();
  }
}

/** pgbench's TPC-B transaction (scale 10, as the throughput rows use), one client. */
async function tpcb(cluster: PrivateCluster, counts: { warm: number; calls: number }) {
  await createDatabase(cluster, 'pgbench');
  const url = cluster.url('pgbench');
  await run('pgbench', ['-i', '-q', '-s', '10', url]);
  let done = false;
  // pgbench runs its transactions in one go: the warm-up is one call of `counted`, the count another.
  return counted(cluster, 'pgbench', { warm: 1, calls: 1 }, async () => {
    await run('pgbench', ['-n', '-c', '1', '-t', String(done ? counts.calls : counts.warm), url]);
    done = true;
  }).then((written) => scaled(written, counts.calls));
}

/** A count made over `calls` operations in one call of `counted`, per operation. */
function scaled(written: Written, calls: number): Written {
  const each = (n: number) => perCall(n, calls);
  return {
    ...written,
    calls,
    walBytes: each(written.walBytes),
    walRecordBytes: each(written.walRecordBytes),
    walImageBytes: each(written.walImageBytes),
    storedBytes: each(written.storedBytes),
    rowsInserted: each(written.rowsInserted),
    rowsUpdated: each(written.rowsUpdated),
    indexEntries: each(written.indexEntries),
    statements: each(written.statements),
    sessionStatements: each(written.sessionStatements),
    relations: Object.fromEntries(Object.entries(written.relations).map(([name, n]) => [name, each(n)])),
  };
}

export interface ServerCpu {
  /** Server CPU µs per request: the bare routes before and after, their mean, the subject. */
  barePost: [LoadResult, LoadResult];
  bareGet: [LoadResult, LoadResult];
  p2p: LoadResult;
  wallet: LoadResult;
  p2pRatio: number;
  walletRatio: number;
}

export interface Costs {
  people: number;
  ledger: Written;
  pgledger: Written;
  tpcb: Written;
  p2p: Written;
  reads: Record<'wallet' | 'history' | 'stat', Written>;
  instructions: DoorInstructions | null;
  serverCpu: ServerCpu;
}

/** The server's CPU per call under `connections` at once, beside the bare routes' before and after. */
async function serverCpu(
  server: Awaited<ReturnType<typeof startServer>>,
  users: BenchUser[],
  databaseUrl: string,
  amount: number,
): Promise<ServerCpu> {
  const connections = 10;
  const bare = await startProcess(
    ['bench/hello.ts'],
    { DATABASE_URL: databaseUrl },
    await freePort(),
    '/healthz',
  );
  try {
    const body = JSON.stringify({ phone: users[1]!.phone, amount: '1.00', currency_code: 'RUB', pin: PIN });
    const headers = { authorization: `Token ${users[0]!.token}`, 'content-type': 'application/json' };
    const barePost = () => {
      const request: autocannon.Request = {
        method: 'POST',
        path: '/round-trip',
        setupRequest: (r) => ({ ...r, headers: { ...headers, 'idempotency-key': randomUUID() }, body }),
      };
      return load({ url: bare.url, connections, amount, requests: [request] }, bare);
    };
    const bareGet = () =>
      load(
        {
          url: `${bare.url}/round-trip`,
          connections,
          amount,
          headers: { authorization: headers.authorization },
        },
        bare,
      );
    await load({ url: `${bare.url}/round-trip`, connections, duration: 1 });
    const postBefore = await barePost();
    const getBefore = await bareGet();
    const p2p = await p2pTransfers(server, users, 0, connections, amount);
    const wallet = await walletGet(server, users, 0, connections, amount);
    const postAfter = await barePost();
    const getAfter = await bareGet();
    const cpu = (r: LoadResult) => r.serverCpuUsPerRequest ?? Number.NaN;
    const ratioTo = (subject: LoadResult, a: LoadResult, b: LoadResult) =>
      Math.round((cpu(subject) / ((cpu(a) + cpu(b)) / 2)) * 100) / 100;
    return {
      barePost: [postBefore, postAfter],
      bareGet: [getBefore, getAfter],
      p2p,
      wallet,
      p2pRatio: ratioTo(p2p, postBefore, postAfter),
      walletRatio: ratioTo(wallet, getBefore, getAfter),
    };
  } finally {
    await bare.stop();
  }
}

/** The counts made in one private cluster; `quick` counts fewer calls. */
async function written(options: Options): Promise<Omit<Costs, 'instructions'>> {
  const counts = options.quick ? { warm: 200, calls: 1000 } : { warm: 500, calls: 3000 };
  const cluster = await privateCluster(SETTINGS.map((setting) => `-c ${setting}`));
  try {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE EXTENSION pg_stat_statements');
    await admin.end();
    log('costs: a bare ledger transfer');
    const ledger = await ledgerTransfers(cluster, counts);
    log('costs: pgledger');
    const pgledger = await pgledgerTransfers(cluster, counts);
    log('costs: TPC-B');
    const tpcbCosts = await tpcb(cluster, counts);

    log('costs: P2P through the API');
    await createDatabase(cluster, 'api');
    const apiUrl = cluster.url('api');
    const server = await startServer(options, apiUrl);
    try {
      const users = await prepareUsers(
        server,
        { name: 'api', url: apiUrl, drop: async () => {} },
        PEOPLE,
        1_000_000n,
      );
      const random = seeded(13);
      // Warm as an instance that has served these people is: each has paid once and been paid once
      // (the hints, the antifraud check's knowledge, the session cache), then random pairs.
      const p2p = await counted(cluster, 'api', { warm: users.length, calls: counts.calls }, async (i) => {
        const [from, to] =
          i < users.length ? [users[i]!, users[(i + 1) % users.length]!] : randomPair(random, users);
        // With an Idempotency-Key, as the app sends every payment: the key and the answer are stored.
        const answer = await call(server.url, 'POST', '/v2/wallet/transfer', {
          token: from.token,
          body: { phone: to.phone, amount: '1.00', currency_code: 'RUB', pin: PIN },
          headers: { 'idempotency-key': randomUUID() },
        });
        if (answer.status !== 200) throw new Error(`P2P: ${answer.status} ${JSON.stringify(answer.body)}`);
      });
      const read = (path: string) =>
        counted(cluster, 'api', { warm: users.length, calls: 500 }, async (i) => {
          const answer = await call(server.url, 'GET', path, { token: users[i % users.length]!.token });
          if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
        });
      const reads = {
        wallet: await read('/v2/wallet'),
        history: await read('/v2/wallet/transaction'),
        stat: await read('/v2/wallet/stat'),
      };
      log('costs: the server CPU per call beside a bare route');
      const cpu = await serverCpu(server, users, apiUrl, options.quick ? 2000 : 6000);
      return { people: PEOPLE, ledger, pgledger, tpcb: tpcbCosts, p2p, reads, serverCpu: cpu };
    } finally {
      await server.stop();
    }
  } finally {
    cluster.remove();
  }
}

/** Every count: the bytes, statements and CPU (`written`), then PostgreSQL's instructions per door call. */
export async function costs(options: Options): Promise<Costs> {
  const counted = await written(options);
  log('costs: PostgreSQL instructions per call (callgrind)');
  const instructions = await doorInstructions(PEOPLE).catch((error: Error) => {
    log(`costs: instructions not counted: ${error.message}`);
    return null;
  });
  return { ...counted, instructions };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseOptions } = await import('./lib.ts');
  console.info(JSON.stringify(await costs(parseOptions(process.argv.slice(2))), null, 2));
}
