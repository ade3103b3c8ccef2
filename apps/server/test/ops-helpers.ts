/**
 * The back office in tests: its own server instance on the test server's context, called with
 * `inject`; operators made as `npm run ops -- create-operator` makes them, signed in with a TOTP code
 * of the test clock's time.
 */
import type { OperatorRole } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { runOps } from '../src/ops/cli.ts';
import { buildOpsApp } from '../src/ops/server.ts';
import type { TestServer } from './helpers.ts';

export interface OpsServer {
  app: FastifyInstance;
  call(
    method: 'GET' | 'POST',
    url: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string>; address?: string },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

export async function startOps(server: TestServer): Promise<OpsServer> {
  const app = await buildOpsApp(server.ctx, { logger: false });
  return {
    app,
    async call(method, url, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Token ${options.token}`;
      const res = await app.inject({
        method,
        url,
        headers,
        // Each test names its client's address: the sign-in is throttled per address.
        remoteAddress: options.address ?? '127.0.0.1',
        ...(options.body !== undefined ? { payload: options.body as object } : {}),
      });
      let body: unknown = res.body;
      try {
        body = res.json();
      } catch {}
      return { status: res.statusCode, body, headers: res.headers as Record<string, unknown> };
    },
  };
}

export interface TestOperator {
  email: string;
  role: OperatorRole;
  password: string;
  secret: string;
  token: string;
  id: string;
}

let made = 0;
let addresses = 0;

/** A client address of its own (TEST-NET-2), so sign-ins of one test never share a throttle. */
export function freshAddress(): string {
  addresses++;
  return `198.18.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}`;
}

/** Runs the ops command; answers its exit code and printed lines. */
export async function ops(server: TestServer, ...argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await runOps(argv, { ctx: server.ctx, print: (line) => out.push(line) });
  return { code, out: out.join('\n') };
}

export function totp(server: TestServer, secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) });
}

/** A new operator of a role, created by the command, with a new password, signed in. */
export async function operator(
  server: TestServer,
  opsServer: OpsServer,
  role: OperatorRole,
): Promise<TestOperator> {
  const email = `${role}-${process.pid}-${++made}@ops.example`;
  const created = await ops(server, 'create-operator', '--email', email, '--role', role);
  if (created.code !== 0) throw new Error(created.out);
  const password = /^password: (\S+)$/m.exec(created.out)![1]!;
  const secret = /^totp_secret: (\S+)$/m.exec(created.out)![1]!;
  const newPassword = `new-password-${made}-long-enough`;
  const signed = await opsServer.call('POST', '/ops/v1/auth/login', {
    body: { email, password, totp: await totp(server, secret), new_password: newPassword },
    address: freshAddress(),
  });
  if (signed.status !== 200) throw new Error(JSON.stringify(signed.body));
  const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM operators WHERE email = $1', [
    email,
  ]);
  return { email, role, password: newPassword, secret, token: signed.body.token, id: rows[0]!.id };
}
