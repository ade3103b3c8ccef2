/**
 * Real server processes for the multi-instance and chaos tests: a fresh PostgreSQL database, `node
 * apps/server/src/main.ts` spawned on a free loopback port (and SIGKILLed or stopped), and a small
 * fetch client that registers people through the real API (codes read from the sandbox outbox).
 * Traffic goes only to 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TERMS_VERSION } from '../../src/modules/terms/service.ts';
import { freshDatabase as freshTestDatabase } from '../helpers.ts';

export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** A fresh database per run (shared with the API tests' harness). */
export const freshDatabase = (prefix = 'ewallet_chaos') => freshTestDatabase(prefix);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** The process's stderr and stdout, kept for failure reports. */
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns one instance of the server and waits until /healthz answers. */
export async function startServer(options: {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
  /** Given the process's output as soon as it is spawned, before it answers (to wait for a line). */
  onSpawn?: (output: () => string) => void;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      WALLET_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      DB_POOL_SIZE: '10',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
      OPS_PORT: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  options.onSpawn?.(() => output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start (${child.exitCode}): ${output}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in 30 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    port,
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  body: any;
}

/** One JSON call; a connection failure (the instance is dead) answers status 0. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Token ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      redirect: 'manual',
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

let phoneCounter = 0;
export function chaosPhone(): string {
  phoneCounter += 1;
  return `+7977${`${process.pid % 1000}${phoneCounter}`.padStart(7, '0').slice(-7)}`;
}

/** Registers a person through the API of an instance (with a PIN); answers the phone and the token. */
export async function register(
  base: string,
  options: { phone?: string; address?: string; pin?: string } = {},
): Promise<{ phone: string; token: string }> {
  const phone = options.phone ?? chaosPhone();
  const headers = options.address ? { 'x-forwarded-for': options.address } : undefined;
  const started = await call(base, 'POST', '/v2/wallet/auth/register', {
    body: {
      first_name: 'Иван',
      last_name: 'Петров',
      phone,
      email: 'ivan@example.com',
      terms_version: TERMS_VERSION,
    },
    headers,
  });
  if (started.status !== 200) throw new Error(`register: ${started.status} ${JSON.stringify(started.body)}`);
  const sms = await call(base, 'GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  const code = sms.body?.results?.[0]?.code;
  const confirmed = await call(base, 'POST', '/v2/wallet/auth/register/phone/confirm', {
    body: { phone, confirm_code: code },
    headers,
  });
  if (confirmed.status !== 200)
    throw new Error(`confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  const token = confirmed.body.auth_token as string;
  const pin = await call(base, 'POST', '/v2/wallet/auth/register/set/pin', {
    token,
    body: { pin_code: options.pin ?? '1234' },
  });
  if (pin.status !== 200) throw new Error(`pin: ${pin.status} ${JSON.stringify(pin.body)}`);
  return { phone, token };
}
