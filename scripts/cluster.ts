/**
 * The whole production topology on this machine (docs/operations.md), from Debian's packages:
 * a pg_auto_failover monitor, a PostgreSQL primary with a synchronous standby, HAProxy (the public
 * HTTP front over the server instances, and a PostgreSQL front leading to the writable node), and
 * two server instances. Ports from CLUSTER_PORT_BASE (6400) on, data in a temporary folder; the
 * machine's own PostgreSQL is left alone. Needs root (PostgreSQL runs as the postgres user).
 *
 *   npm run cluster -- up             builds and starts everything; prints `url: <HAProxy>` when ready
 *   npm run cluster -- status         JSON: the primary, the standbys, the instances
 *   npm run cluster -- kill-primary   SIGKILLs the primary's whole node (its agent and its postmaster)
 *   npm run cluster -- kill-instance  SIGKILLs one server instance (restart-instance starts it again)
 *   npm run cluster -- switchover     a planned switchover (pg_autoctl perform switchover)
 *   npm run cluster -- down           stops everything it started and removes its folder
 *   npm run cluster -- errorfiles     rewrites deploy/errors from the contract's messages
 *
 * scripts/test-cluster.ts drives it under load.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haproxyErrorFile } from '../apps/server/src/http/errors.ts';
import { asPostgres, ensurePackages, PG_BIN, postgresUid } from './cluster/postgres.ts';
import { alive, processTree, query, signalTree, sleep, startDetached, waitFor } from './cluster/processes.ts';

export { PG_BIN } from './cluster/postgres.ts';
export { alive, signalTree } from './cluster/processes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'apps/server/src/main.ts');
const INSTANCES = 2;
const DATABASE = 'wallet';

export interface Layout {
  base: number;
  dir: string;
  monitorPort: number;
  nodePorts: number[];
  pgFrontPort: number;
  httpPort: number;
  instancePorts: number[];
  metricsPorts: number[];
  restorePort: number;
  url: string;
  databaseUrl: string;
  archiveDir: string;
}

export function layout(): Layout {
  const base = Number(process.env.CLUSTER_PORT_BASE ?? 6400);
  const dir = process.env.CLUSTER_DIR ?? join(tmpdir(), `e-wallet-cluster-${base}`);
  const pgFrontPort = base + 10;
  return {
    base,
    dir,
    monitorPort: base,
    nodePorts: [base + 1, base + 2],
    pgFrontPort,
    httpPort: base + 20,
    instancePorts: Array.from({ length: INSTANCES }, (_, i) => base + 31 + i),
    metricsPorts: Array.from({ length: INSTANCES }, (_, i) => base + 41 + i),
    restorePort: base + 50,
    url: `http://127.0.0.1:${base + 20}`,
    databaseUrl: `postgres://postgres@127.0.0.1:${pgFrontPort}/${DATABASE}`,
    archiveDir: join(dir, 'wal-archive'),
  };
}

interface State {
  pids: Record<string, number>;
  startedAt: string;
}

const log = (line: string) => console.error(`cluster: ${line}`);

function stateFile(l: Layout): string {
  return join(l.dir, 'state.json');
}
function readState(l: Layout): State | null {
  return existsSync(stateFile(l)) ? (JSON.parse(readFileSync(stateFile(l), 'utf8')) as State) : null;
}
function writeState(l: Layout, state: State): void {
  writeFileSync(stateFile(l), `${JSON.stringify(state, null, 2)}\n`);
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export async function formation(l: Layout): Promise<NodeState[]> {
  return (
    await query<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
      l.monitorPort,
      'pg_auto_failover',
      'SELECT nodename, nodeport, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid',
    )
  ).map((n) => ({ name: n.nodename, port: n.nodeport, reported: n.reportedstate, goal: n.goalstate }));
}

const PRIMARY_STATES = new Set(['single', 'primary', 'wait_primary', 'join_primary', 'apply_settings']);

/** The monitor's failover timeouts (docs/operations.md, "Failover timeouts"). */
const MONITOR_SQL = join(ROOT, 'deploy/monitor.sql');

function startNode(l: Layout, index: number): number {
  const name = `node${index + 1}`;
  const [command, args] = asPostgres(l.dir, [
    'pg_autoctl',
    'create',
    'postgres',
    '--pgdata',
    join(l.dir, name),
    '--pgport',
    String(l.nodePorts[index]),
    '--listen',
    '127.0.0.1',
    '--hostname',
    '127.0.0.1',
    '--name',
    name,
    '--dbname',
    DATABASE,
    '--auth',
    'trust',
    '--no-ssl',
    '--monitor',
    `postgres://autoctl_node@127.0.0.1:${l.monitorPort}/pg_auto_failover?sslmode=disable`,
    '--run',
  ]);
  return startDetached(l.dir, name, command, args);
}

function instanceEnv(l: Layout, index: number): Record<string, string | undefined> {
  return {
    ...process.env,
    WALLET_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(l.instancePorts[index]),
    // Each instance's back office on a free port of its own (the log names it).
    OPS_PORT: '0',
    PUBLIC_URL: l.url,
    METRICS_PORT: String(l.metricsPorts[index]),
    DATABASE_URL: l.databaseUrl,
    DB_POOL_SIZE: process.env.CLUSTER_DB_POOL_SIZE ?? '10',
    TRUST_PROXY: '1',
    LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'info',
    WEB_DIST: process.env.CLUSTER_WEB_DIST ?? '',
    SANDBOX_PAYOUT_DELAY_MS: '1000',
    // The sandbox's people all sign up from one machine here.
    SMS_PER_ADDRESS_PER_HOUR: '100000',
  };
}

function startInstance(l: Layout, index: number): number {
  return startDetached(l.dir, `app${index + 1}`, process.execPath, [MAIN], instanceEnv(l, index));
}

export function writeErrorFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const language of ['ru', 'en'] as const)
    writeFileSync(join(dir, `503-${language}.http`), haproxyErrorFile(language));
}

function haproxyEnv(l: Layout): Record<string, string | undefined> {
  return {
    ...process.env,
    WALLET_HTTP_BIND: `127.0.0.1:${l.httpPort}`,
    WALLET_APP_1: `127.0.0.1:${l.instancePorts[0]}`,
    WALLET_APP_2: `127.0.0.1:${l.instancePorts[1]}`,
    PG_FRONT_BIND: `127.0.0.1:${l.pgFrontPort}`,
    PG_NODE_1: `127.0.0.1:${l.nodePorts[0]}`,
    PG_NODE_2: `127.0.0.1:${l.nodePorts[1]}`,
    WALLET_ERRORS_DIR: join(ROOT, 'deploy/errors'),
  };
}

async function ready(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function up(l: Layout = layout()): Promise<void> {
  const previous = readState(l);
  if (previous && Object.values(previous.pids).some(alive))
    throw new Error(`already up in ${l.dir} (npm run cluster -- down first)`);
  ensurePackages();
  const started = Date.now();
  rmSync(l.dir, { recursive: true, force: true });
  const { uid, gid } = postgresUid();
  for (const sub of ['', 'xdg', 'wal-archive']) {
    mkdirSync(join(l.dir, sub), { recursive: true });
    chownSync(join(l.dir, sub), uid, gid);
  }
  const state: State = { pids: {}, startedAt: new Date().toISOString() };
  const save = () => writeState(l, state);

  const [monitorCommand, monitorArgs] = asPostgres(l.dir, [
    'pg_autoctl',
    'create',
    'monitor',
    '--pgdata',
    join(l.dir, 'monitor'),
    '--pgport',
    String(l.monitorPort),
    '--listen',
    '127.0.0.1',
    '--hostname',
    '127.0.0.1',
    '--auth',
    'trust',
    '--no-ssl',
    '--run',
  ]);
  state.pids.monitor = startDetached(l.dir, 'monitor', monitorCommand, monitorArgs);
  save();
  await waitFor('the monitor', 60_000, async () =>
    (await query(l.monitorPort, 'pg_auto_failover', 'SELECT 1 FROM pgautofailover.formation')).length
      ? true
      : undefined,
  );
  const statements = readFileSync(MONITOR_SQL, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
  for (const statement of statements) await query(l.monitorPort, 'pg_auto_failover', statement);
  log(`monitor up (${Math.round((Date.now() - started) / 1000)} s)`);

  // The first node's data folder is made here, so its settings are in place from its first start:
  // WAL archiving for point-in-time restores (docs/operations.md, "Backups"), and memory sized for a
  // shared machine (pg_auto_failover would give each node a quarter of the RAM). postgresql.auto.conf
  // overrides pg_auto_failover's own file, and the standby's base backup copies it.
  const pgdata = join(l.dir, 'node1');
  execFileSync(...asPostgres(l.dir, ['initdb', '-D', pgdata, '-A', 'trust', '-U', 'postgres', '--no-sync']), {
    stdio: 'ignore',
  });
  writeFileSync(
    join(pgdata, 'postgresql.auto.conf'),
    [
      `archive_mode = 'on'`,
      `archive_command = 'test ! -f ${l.archiveDir}/%f && cp %p ${l.archiveDir}/%f'`,
      `archive_timeout = '10s'`,
      `shared_buffers = '${process.env.CLUSTER_SHARED_BUFFERS ?? '256MB'}'`,
      `effective_cache_size = '1GB'`,
      `maintenance_work_mem = '64MB'`,
      '',
    ].join('\n'),
  );
  chownSync(join(pgdata, 'postgresql.auto.conf'), uid, gid);
  state.pids.node1 = startNode(l, 0);
  save();
  await waitFor('the first node', 90_000, async () => {
    const nodes = await formation(l);
    return nodes.some((n) => n.name === 'node1' && PRIMARY_STATES.has(n.reported)) ? true : undefined;
  });
  const primaryPort = l.nodePorts[0]!;
  await query(
    primaryPort,
    DATABASE,
    `DO $$ BEGIN CREATE ROLE haproxy_check LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
  );
  log(`primary up (${Math.round((Date.now() - started) / 1000)} s)`);

  state.pids.node2 = startNode(l, 1);
  save();
  // The standby's base backup waits for a checkpoint, spread over minutes by default: ask for it now.
  await waitFor('the synchronous standby', 240_000, async () => {
    const nodes = await formation(l);
    if (nodes.some((n) => n.reported === 'primary') && nodes.some((n) => n.reported === 'secondary'))
      return true;
    await query(primaryPort, DATABASE, 'CHECKPOINT').catch(() => {});
    await sleep(700);
    return undefined;
  });
  log(`standby up (${Math.round((Date.now() - started) / 1000)} s)`);

  state.pids.haproxy = startDetached(
    l.dir,
    'haproxy',
    '/usr/sbin/haproxy',
    ['-db', '-f', join(ROOT, 'deploy/haproxy.cfg')],
    haproxyEnv(l),
  );
  save();
  await waitFor('the PostgreSQL front', 30_000, async () => {
    const rows = await query<{ ro: string }>(
      l.pgFrontPort,
      DATABASE,
      "SELECT current_setting('transaction_read_only') AS ro",
    );
    return rows[0]?.ro === 'off' ? true : undefined;
  });

  for (let i = 0; i < INSTANCES; i++) state.pids[`app${i + 1}`] = startInstance(l, i);
  save();
  await waitFor('the server instances', 120_000, async () => {
    for (const port of l.instancePorts)
      if (!(await ready(`http://127.0.0.1:${port}/readyz`))) return undefined;
    return (await ready(`${l.url}/readyz`)) ? true : undefined;
  });
  log(`instances up (${Math.round((Date.now() - started) / 1000)} s)`);
  console.info(`url: ${l.url}`);
}

export interface Status {
  url: string;
  primary: string | null;
  standbys: string[];
  nodes: NodeState[];
  instances: { name: string; port: number; pid: number; alive: boolean; ready: boolean }[];
  haproxy: boolean;
}

export async function status(l: Layout = layout()): Promise<Status> {
  const state = readState(l);
  if (!state) throw new Error(`no cluster in ${l.dir}`);
  const nodes = await formation(l).catch(() => [] as NodeState[]);
  const primary = nodes.find((n) => PRIMARY_STATES.has(n.reported) && PRIMARY_STATES.has(n.goal));
  const instances = [];
  for (let i = 0; i < INSTANCES; i++) {
    const name = `app${i + 1}`;
    const port = l.instancePorts[i]!;
    const pid = state.pids[name] ?? 0;
    instances.push({
      name,
      port,
      pid,
      alive: alive(pid),
      ready: alive(pid) && (await ready(`http://127.0.0.1:${port}/readyz`)),
    });
  }
  return {
    url: l.url,
    primary: primary?.name ?? null,
    standbys: nodes.filter((n) => n !== primary && n.reported === 'secondary').map((n) => n.name),
    nodes,
    instances,
    haproxy: alive(state.pids.haproxy),
  };
}

/** SIGKILLs the current primary's whole node. Answers its name. */
export async function killPrimary(l: Layout = layout()): Promise<string> {
  const state = readState(l);
  if (!state) throw new Error(`no cluster in ${l.dir}`);
  const nodes = await formation(l);
  const primary = nodes.find((n) => PRIMARY_STATES.has(n.reported));
  if (!primary) throw new Error('no primary to kill');
  const pid = state.pids[primary.name];
  if (!alive(pid)) throw new Error(`${primary.name} is not running`);
  signalTree(pid!, 'SIGKILL');
  return primary.name;
}

/** A planned switchover (for upgrades): the standby becomes primary, the primary a standby. */
export function switchover(l: Layout = layout()): void {
  const [command, args] = asPostgres(l.dir, [
    'pg_autoctl',
    'perform',
    'switchover',
    '--monitor',
    `postgres://autoctl_node@127.0.0.1:${l.monitorPort}/pg_auto_failover?sslmode=disable`,
  ]);
  // Its progress lines go to the cluster's folder (it also logs a harmless lookup error on the way).
  const out = openSync(join(l.dir, 'switchover.log'), 'a');
  try {
    execFileSync(command, args, { stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
}

/** SIGKILLs one running server instance (the first, or the one named). Answers its name. */
export function killInstance(l: Layout = layout(), name?: string): string {
  const state = readState(l);
  if (!state) throw new Error(`no cluster in ${l.dir}`);
  const target = Object.keys(state.pids).find(
    (key) => key.startsWith('app') && (!name || key === name) && alive(state.pids[key]),
  );
  if (!target) throw new Error('no running instance to kill');
  signalTree(state.pids[target]!, 'SIGKILL');
  return target;
}

/** Starts a server instance again (as a supervisor would after it died), on its own port. */
export function restartInstance(l: Layout, name: string): void {
  const state = readState(l);
  if (!state) throw new Error(`no cluster in ${l.dir}`);
  const index = Number(name.replace('app', '')) - 1;
  if (!(index >= 0 && index < INSTANCES)) throw new Error(`no instance ${name}`);
  if (alive(state.pids[name])) throw new Error(`${name} is running`);
  state.pids[name] = startInstance(l, index);
  writeState(l, state);
}

/** Stops everything: the instances and HAProxy, then the nodes and the monitor; removes the folder. */
export async function down(l: Layout = layout(), options: { keep?: boolean } = {}): Promise<void> {
  const state = readState(l);
  if (state) {
    const order = Object.keys(state.pids).sort((a, b) => rank(a) - rank(b));
    for (const name of order) {
      const pid = state.pids[name];
      if (alive(pid)) signalTree(pid!, 'SIGTERM');
    }
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && Object.values(state.pids).some((pid) => processTree(pid).some(alive)))
      await sleep(200);
    for (const pid of Object.values(state.pids)) if (alive(pid)) signalTree(pid, 'SIGKILL');
  }
  // A restored copy (the backup drill) runs under pg_ctl, outside the state's pids.
  const restored = join(l.dir, 'restore');
  if (existsSync(join(restored, 'postmaster.pid'))) {
    spawnSync(
      'runuser',
      ['-u', 'postgres', '--', `${PG_BIN}/pg_ctl`, '-D', restored, '-m', 'immediate', 'stop'],
      {
        stdio: 'ignore',
      },
    );
  }
  if (!options.keep) rmSync(l.dir, { recursive: true, force: true });
}

function rank(name: string): number {
  if (name.startsWith('app')) return 0;
  if (name === 'haproxy') return 1;
  if (name === 'monitor') return 3;
  return 2;
}

async function main(): Promise<void> {
  const [command, argument] = process.argv.slice(2);
  const l = layout();
  switch (command) {
    case 'up':
      if (process.getuid?.() !== 0) {
        console.error('cluster: run as root (PostgreSQL runs as the postgres user through runuser)');
        process.exit(1);
      }
      try {
        await up(l);
      } catch (error) {
        log(`up failed: ${(error as Error).message}; logs in ${l.dir}`);
        await down(l, { keep: true });
        process.exit(1);
      }
      return;
    case 'status':
      console.info(JSON.stringify(await status(l), null, 2));
      return;
    case 'kill-primary':
      console.info(JSON.stringify({ killed: await killPrimary(l), at: new Date().toISOString() }));
      return;
    case 'kill-instance':
      console.info(JSON.stringify({ killed: killInstance(l, argument), at: new Date().toISOString() }));
      return;
    case 'switchover':
      switchover(l);
      console.info(JSON.stringify(await status(l)));
      return;
    case 'restart-instance':
      restartInstance(l, argument ?? 'app1');
      return;
    case 'down':
      await down(l, { keep: process.env.CLUSTER_KEEP === '1' });
      return;
    case 'errorfiles':
      writeErrorFiles(join(ROOT, 'deploy/errors'));
      return;
    default:
      console.error(
        'usage: npm run cluster -- up | status | kill-primary | kill-instance [appN] | restart-instance [appN] | switchover | down | errorfiles',
      );
      process.exit(2);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
