/**
 * The processes of scripts/cluster.ts: started detached with their output in a log file, told apart
 * from zombies, signalled as whole trees (SIGKILL as if their machine died), and waited for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    // A zombie (killed, not yet reaped) is gone for our purposes.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** The pid and every process below it (a node's agent, its postmaster and the backends). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {}
  }
  const all: number[] = [];
  const walk = (pid: number) => {
    all.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return all;
}

/** Sends a signal to a whole process tree at once (SIGKILL: as if its machine died). */
export function signalTree(root: number, signal: NodeJS.Signals): number[] {
  const pids = processTree(root);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
  return pids;
}

/** Starts a long-running command in its own session, output appended to a log file. */
export function startDetached(
  dir: string,
  name: string,
  command: string,
  args: string[],
  env: Record<string, string | undefined> = process.env,
): number {
  const out = openSync(join(dir, `${name}.log`), 'a');
  const child: ChildProcess = spawn(command, args, { detached: true, stdio: ['ignore', out, out], env });
  closeSync(out);
  child.unref();
  if (!child.pid) throw new Error(`could not start ${name}`);
  return child.pid;
}

export async function query<T extends object = Record<string, unknown>>(
  port: number,
  database: string,
  sql: string,
  params: unknown[] = [],
  user = 'postgres',
): Promise<T[]> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user,
    database,
    connectionTimeoutMillis: 3_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not ready in ${timeoutMs / 1000} s${last ? ` (${(last as Error).message})` : ''}`,
      );
    await sleep(300);
  }
}
