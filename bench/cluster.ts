/**
 * A PostgreSQL cluster of the bench's own: `initdb` in a temporary directory, started on a free port
 * of 127.0.0.1 with its socket in that directory, the machine's own cluster (5432) untouched. WAL is
 * counted cluster-wide, so what the costs count must be the only thing writing there. Needs
 * PostgreSQL's server binaries (`pg_config --bindir`); as root it runs them as the `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib.ts';

let bin: string | null = null;
/** PostgreSQL's server binaries, asked of `pg_config` when first needed (a machine without them fails the step, not the bench). */
export function pgBin(): string {
  bin ??= execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  return bin;
}
const asRoot = process.getuid?.() === 0;

/** A command as the postgres user when this runs as root: PostgreSQL refuses to run as root. */
export function asPostgres(file: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

/** Runs one of PostgreSQL's programs (or any command) as the postgres user, to its end. */
export function runAsPostgres(file: string, args: string[]): string {
  const [command, rest] = asPostgres(file, args);
  return execFileSync(command, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface PrivateCluster {
  /** The data directory. */
  dir: string;
  port: number;
  /** A superuser's URL of one of its databases. */
  url(database?: string): string;
  /** Stops the server, its data directory kept (to be copied). */
  stop(): void;
  /** Stops it if running and removes everything it had. */
  remove(): void;
}

/** A fresh cluster, started with `settings` (each `-c name=value`). */
export async function privateCluster(settings: string[] = []): Promise<PrivateCluster> {
  const root = mkdtempSync(join(tmpdir(), 'ewallet-cluster-'));
  chmodSync(root, 0o777);
  const dir = join(root, 'data');
  runAsPostgres(join(pgBin(), 'initdb'), [
    '-D',
    dir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  let running = false;
  const cluster: PrivateCluster = {
    dir,
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop() {
      if (!running) return;
      runAsPostgres(join(pgBin(), 'pg_ctl'), ['-D', dir, '-w', '-m', 'fast', 'stop']);
      running = false;
    },
    remove() {
      try {
        cluster.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
  const options = [`-p ${port}`, `-k ${root}`, '-c listen_addresses=127.0.0.1', ...settings].join(' ');
  try {
    // Its log goes to a file: a server holding this process's pipe open would never let pg_ctl's call end.
    runAsPostgres(join(pgBin(), 'pg_ctl'), [
      '-D',
      dir,
      '-w',
      '-l',
      join(root, 'server.log'),
      '-o',
      options,
      'start',
    ]);
    running = true;
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
