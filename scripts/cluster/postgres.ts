/**
 * PostgreSQL and pg_auto_failover for scripts/cluster.ts, from Debian's packages (installed when
 * missing): the version's binaries, and commands run as the postgres user with pg_auto_failover's
 * files kept in the cluster's folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const PG_VERSION = process.env.CLUSTER_PG_VERSION ?? '15';
export const PG_BIN = `/usr/lib/postgresql/${PG_VERSION}/bin`;
const PACKAGES = [`postgresql-${PG_VERSION}-auto-failover`, 'pg-auto-failover-cli', 'haproxy'];

export function ensurePackages(): void {
  const missing =
    !existsSync('/usr/bin/pg_autoctl') ||
    !existsSync('/usr/sbin/haproxy') ||
    !existsSync(`${PG_BIN}/pg_ctl`) ||
    !existsSync(`/usr/share/postgresql/${PG_VERSION}/extension/pgautofailover.control`);
  if (!missing) return;
  console.error(`cluster: installing ${PACKAGES.join(', ')} from Debian's packages`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...PACKAGES], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export function postgresUid(): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  };
}

/** Runs a command as the postgres user with pg_auto_failover's files kept in the cluster's folder. */
export function asPostgres(dir: string, args: string[]): [string, string[]] {
  return [
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      'env',
      `XDG_CONFIG_HOME=${join(dir, 'xdg/config')}`,
      `XDG_DATA_HOME=${join(dir, 'xdg/data')}`,
      `PATH=${PG_BIN}:/usr/bin:/bin`,
      'PG_AUTOCTL_DEBUG=',
      ...args,
    ],
  ];
}
