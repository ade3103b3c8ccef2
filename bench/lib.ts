/**
 * What every measurement shares: the bench's options, fresh PostgreSQL databases of its own,
 * the server started as a separate process, child processes, autocannon, and the machine's load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const NODE = process.execPath;

export interface Options {
  quick: boolean;
  big: boolean;
  /** Rows of the --big seed (10 million by default). */
  bigRows: number;
  /** Only these measurements (by key), or all. */
  only: Set<string> | null;
  /** Clients of pgbench and workers of the ledger runs. */
  clients: number;
  /** Seconds of each load run. */
  seconds: number;
  adminUrl: string;
  chromium: string;
  lighthouse: boolean;
  cpuProf: boolean;
}

export function parseOptions(argv: string[]): Options {
  const value = (name: string) => {
    const at = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (at < 0) return undefined;
    const arg = argv[at]!;
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[at + 1];
  };
  const quick = argv.includes('--quick');
  const only = value('only');
  return {
    quick,
    big: argv.includes('--big') && !quick,
    bigRows: Number(value('big-rows') ?? 10_000_000),
    only: only ? new Set(only.split(',')) : null,
    clients: Number(value('clients') ?? 10),
    seconds: Number(value('seconds') ?? (quick ? 6 : 20)),
    adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    lighthouse: !argv.includes('--no-lighthouse'),
    cpuProf: argv.includes('--cpu-prof'),
  };
}

export function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** The machine and how busy it is right now (other people's work makes numbers noisy). */
export function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function load1(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

// ---------- databases ----------

export interface BenchDb {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** One statement on the admin URL's own connection (databases cannot be created in a transaction or pool). */
async function adminStatement(options: Options, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: options.adminUrl });
  try {
    await admin.connect();
    await admin.query(sql);
  } finally {
    await admin.end().catch(() => {});
  }
}

/** A fresh database of the bench's own (ewallet_bench_*), dropped by `drop` and nobody else's touched. */
export async function freshDatabase(options: Options, label: string): Promise<BenchDb> {
  const name = `ewallet_bench_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminStatement(options, `CREATE DATABASE ${name}`);
  const url = new URL(options.adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminStatement(options, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * PostgreSQL's own time in one function per call (pg_stat_user_functions, waits for row locks
 * included): how the money path's statements compare on the same server in the same run. The
 * database counts PL/pgSQL calls from connections opened after `trackFunctions`.
 */
export async function trackFunctions(options: Options, database: BenchDb): Promise<void> {
  await adminStatement(options, `ALTER DATABASE ${database.name} SET track_functions = 'pl'`);
}

export interface FunctionTime {
  calls: number;
  totalUsPerCall: number;
  selfUsPerCall: number;
}

/** Forgets the database's function counts (before a run); `functionTimes` reads them after it. */
export async function resetFunctionTimes(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_stat_reset()');
  } finally {
    await client.end();
  }
}

export async function functionTimes(url: string): Promise<Record<string, FunctionTime>> {
  // Backends report their counts when idle for a moment: waited for, so the run's last calls count.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ funcname: string; calls: string; total: number; self: number }>(
      `SELECT funcname, sum(calls)::text AS calls, sum(total_time)::float8 AS total, sum(self_time)::float8 AS self
       FROM pg_stat_user_functions GROUP BY funcname`,
    );
    return Object.fromEntries(
      rows.map((row) => {
        const calls = Number(row.calls);
        return [
          row.funcname,
          {
            calls,
            totalUsPerCall: Math.round((row.total * 1000) / Math.max(calls, 1)),
            selfUsPerCall: Math.round((row.self * 1000) / Math.max(calls, 1)),
          },
        ];
      }),
    );
  } finally {
    await client.end();
  }
}

/**
 * Writes out what PostgreSQL still holds in memory from earlier work (CHECKPOINT), so that a step
 * does not pay for the previous one's deferred writes (the ledger runs leave a lot; GET /v2/wallet
 * had a p99 of 21-25 ms after them in full runs, 14-16 ms in runs of its own, and 15 ms in the
 * first full run with this). Needs a superuser (the admin URL); without one the step goes on as it is.
 */
export async function checkpoint(options: Options): Promise<void> {
  await adminStatement(options, 'CHECKPOINT').catch((error: Error) =>
    log(`checkpoint skipped: ${error.message}`),
  );
}

// ---------- processes ----------

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Running {
  url: string;
  child: ChildProcess;
  /** The database it serves, when it is the real server on a bench database. */
  database?: string;
  stop(): Promise<void>;
}

/** Waits until GET url answers 200 (or the child dies). */
async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs = 90_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

/** Starts a Node program as a child process and waits for its health address. */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  port: number,
  healthPath: string,
): Promise<Running> {
  // DATABASE_URL given as '' is left out: the embedded database's server has none at all.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    OPS_PORT: '0',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  if (childEnv.DATABASE_URL === '') delete childEnv.DATABASE_URL;
  const child = spawn(NODE, args, {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}${healthPath}`, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The real server (`node apps/server/src/main.ts`) on a database of the bench, logging warnings
 * only. Sandbox providers; the per-address SMS cap raised because the bench registers its users
 * from one address.
 */
/** The real server on the embedded database (PGlite) in `dataDir`, as `npm start` runs it. */
export async function startPgliteServer(options: Options, dataDir: string): Promise<Running> {
  const port = await freePort();
  return startProcess(
    options.cpuProf
      ? ['--cpu-prof', `--cpu-prof-dir=${ROOT}bench/results/profiles`, 'apps/server/src/main.ts']
      : ['apps/server/src/main.ts'],
    {
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WALLET_ENV: 'development',
      SMS_PER_ADDRESS_PER_HOUR: '1000000',
      CODE_CHECKS_PER_ADDRESS_PER_HOUR: '1000000',
      WEB_DIST: '',
    },
    port,
    '/healthz',
  );
}

export async function startServer(
  options: Options,
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<Running> {
  const port = await freePort();
  const args = options.cpuProf
    ? ['--cpu-prof', `--cpu-prof-dir=${ROOT}bench/results/profiles`, 'apps/server/src/main.ts']
    : ['apps/server/src/main.ts'];
  const running = await startProcess(
    args,
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      WALLET_ENV: 'development',
      SMS_PER_ADDRESS_PER_HOUR: '1000000',
      CODE_CHECKS_PER_ADDRESS_PER_HOUR: '1000000',
      SANDBOX_PAYOUT_DELAY_MS: '1000',
      WEB_DIST: '',
      ...extraEnv,
    },
    port,
    '/healthz',
  );
  return { ...running, database: new URL(databaseUrl).pathname.slice(1) };
}

/** Runs a command to its end; answers its output, throws on a non-zero exit. */
export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(out + err);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${(out + err).slice(-3000)}`));
    });
  });
}

// ---------- HTTP load ----------

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time (user and system, all threads) the server process spent per answered request, in µs. */
  serverCpuUsPerRequest?: number;
  /** CPU time the PostgreSQL backends serving the server's database spent per answered request, in µs. */
  databaseCpuUsPerRequest?: number;
  /** CPU time the load generator (autocannon, in the bench's own process) spent per answered request, in µs. */
  loadCpuUsPerRequest: number;
}

/** CPU seconds (user and system) a process has used so far, from /proc (Linux), or null. */
function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // The command name, in parentheses, may hold spaces: the fields are counted after it.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, the 14th and 15th fields, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds the PostgreSQL backends connected to a database have used so far, from their process
 * titles in /proc ('postgres: 15/main: postgres <database> 127.0.0.1(port) idle'), or null. A backend
 * that exits during a measurement takes its time with it; the server's pool keeps its connections.
 */
export function databaseCpuSeconds(database: string | undefined): number | null {
  if (!database) return null;
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let title: string;
    try {
      title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!title.startsWith('postgres: ') || !title.includes(` ${database} `)) continue;
    const seconds = cpuSecondsOf(Number(entry));
    if (seconds === null) continue;
    total += seconds;
    found = true;
  }
  return found ? total : null;
}

/** µs per request from CPU seconds read before and after, or nothing when either is missing. */
export function perRequest(
  before: number | null,
  after: number | null,
  requests: number,
): number | undefined {
  return before !== null && after !== null && requests > 0
    ? Math.round(((after - before) * 1e7) / requests) / 10
    : undefined;
}

/**
 * Loads a server with autocannon; given the server's process, also its CPU time per request, and
 * for the real server that of the PostgreSQL backends serving its database.
 */
export async function load(opts: autocannon.Options, server?: Running): Promise<LoadResult> {
  const before = [cpuSecondsOf(server?.child.pid), databaseCpuSeconds(server?.database)] as const;
  const own = process.cpuUsage();
  const result = await autocannon({ timeout: 10, ...opts });
  const spent = process.cpuUsage(own);
  const after = [cpuSecondsOf(server?.child.pid), databaseCpuSeconds(server?.database)] as const;
  const serverCpu = perRequest(before[0], after[0], result.requests.total);
  const databaseCpu = perRequest(before[1], after[1], result.requests.total);
  return {
    ...(serverCpu === undefined ? {} : { serverCpuUsPerRequest: serverCpu }),
    ...(databaseCpu === undefined ? {} : { databaseCpuUsPerRequest: databaseCpu }),
    loadCpuUsPerRequest: perRequest(0, (spent.user + spent.system) / 1e6, result.requests.total) ?? 0,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? Math.round((value / baseline) * 1000) / 1000 : 0;
}

/** A small deterministic random source (the bench's choices are reproducible, never money). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two different members of `list`, drawn from `random`. */
export function randomPair<T>(random: () => number, list: T[]): [T, T] {
  const pick = () => list[Math.floor(random() * list.length)]!;
  const first = pick();
  let second = pick();
  while (second === first) second = pick();
  return [first, second];
}

/**
 * A baseline measured just before and just after the runs it is compared with, and their mean: this
 * machine's speed drifts within minutes (pgbench 1,241 to 2,747 tps, the hello-world 32,000 to
 * 57,000 req/s in one afternoon, with the disk's flush time and the neighbours), so a baseline
 * taken once can be a different machine from the one the measurement ran on.
 */
export function bracketed<T extends object>(before: T, after: T, key: keyof T & string) {
  const mean = Math.round(((before[key] as number) + (after[key] as number)) / 2);
  const runs = `mean of ${before[key]} before and ${after[key]} after`;
  return { ...before, [key]: mean, before, after, runs } as T & { before: T; after: T; runs: string };
}
