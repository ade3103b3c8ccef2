/**
 * The HTTP side, against the real server in its own process on a fresh PostgreSQL database:
 * the hello-world baseline, authenticated GET /v2/wallet under 100 connections, and P2P transfers
 * through POST /v2/wallet/transfer with the PIN checked, by users registered, identified
 * (simplified, through the sandbox KYC form) and funded (a real ledger transfer) beforehand.
 */
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { TERMS_VERSION } from '../apps/server/src/modules/terms/service.ts';
import { fund, userIdOfPhone } from '../apps/server/test/fund.ts';
import {
  type BenchDb,
  freePort,
  type LoadResult,
  load,
  log,
  type Options,
  type Running,
  seeded,
  startProcess,
} from './lib.ts';

export const PIN = '2580';

export async function helloWorld(
  _options: Options,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const hello = await startProcess(['bench/hello.ts'], {}, await freePort(), '/healthz');
  try {
    await load({ url: `${hello.url}/`, connections, duration: 2 });
    return await load({ url: `${hello.url}/`, connections, duration: seconds }, hello);
  } finally {
    await hello.stop();
  }
}

async function call(
  base: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.token) headers.authorization = `Token ${options.token}`;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML of the sandbox pages
  }
  return { status: response.status, body: parsed };
}

function expectStatus(answer: { status: number; body: unknown }, status: number, what: string): void {
  if (answer.status !== status)
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
}

export interface BenchUser {
  phone: string;
  token: string;
}

/** Registers a person through the real calls, sets the PIN and passes the sandbox KYC (simplified). */
async function registerUser(base: string, phone: string): Promise<BenchUser> {
  const person = {
    first_name: 'Бенч',
    last_name: 'Замеров',
    email: `bench${phone.slice(-7)}@example.com`,
    terms_version: TERMS_VERSION,
  };
  expectStatus(
    await call(base, 'POST', '/v2/wallet/auth/register', { body: { ...person, phone } }),
    200,
    'register',
  );
  const sms = await call(base, 'GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  const code = sms.body?.results?.[0]?.code;
  const confirmed = await call(base, 'POST', '/v2/wallet/auth/register/phone/confirm', {
    body: { phone, confirm_code: code },
  });
  expectStatus(confirmed, 200, 'confirm');
  const token: string = confirmed.body.auth_token;
  expectStatus(
    await call(base, 'POST', '/v2/wallet/auth/register/set/pin', { token, body: { pin_code: PIN } }),
    200,
    'set pin',
  );
  const upgrade = await call(base, 'POST', '/v2/wallet/identification-level/upgrade', { token });
  expectStatus(upgrade, 200, 'upgrade');
  const decided = await call(base, 'POST', upgrade.body.verification_url, {
    form: {
      document_type: 'snils',
      document_number: '112-233-445 95',
      full_name: 'Замеров Бенч Сергеевич',
      birth_date: '1990-04-12',
      action: 'approve',
    },
  });
  expectStatus(decided, 303, 'sandbox KYC approve');
  return { phone, token };
}

/** `count` users registered 8 at a time, checked to be simplified, each funded with `amountMinor`. */
/** `count` people registered through the real calls and raised to 'simplified' (eight at a time). */
export async function registerUsers(server: Running, count: number): Promise<BenchUser[]> {
  const base = `+7966${String(process.pid % 1000).padStart(3, '0')}`;
  const users: BenchUser[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      users.push(await registerUser(server.url, `${base}${String(index).padStart(4, '0')}`));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return users;
}

export async function prepareUsers(
  server: Running,
  database: BenchDb,
  count: number,
  amountMinor: bigint,
): Promise<BenchUser[]> {
  const users = await registerUsers(server, count);
  const info = await call(server.url, 'GET', '/v2/wallet/auth/info', { token: users[0]!.token });
  const level = JSON.stringify(info.body).match(/"(anonymous|simplified|full)"/)?.[1];
  if (level !== 'simplified')
    throw new Error(`users are not simplified after KYC: ${JSON.stringify(info.body)}`);
  const db = await openPostgres(database.url, 4);
  try {
    const ctx = { db, clock: { now: () => new Date() } };
    for (const user of users) await fund(ctx, await userIdOfPhone(ctx, user.phone), amountMinor);
    // Statistics for the tables just filled, as `pgbench -i` and the ledger row take them: otherwise
    // the planner's choices wait on autovacuum's first visit, a draw within the measured seconds.
    await db.exec('ANALYZE');
  } finally {
    await db.close();
  }
  return users;
}

/**
 * Authenticated GET /v2/wallet, 100 connections, each going through the tokens of every user in
 * turn from its own starting point, so that concurrent requests are for different users (as many
 * people's would be). Each request is built once per connection, as the hello-world's is: a request
 * rebuilt on every send (autocannon's `setupRequest`) costs the load generator CPU that the
 * baseline does not pay, on the same two cores.
 */
export async function walletGet(
  server: Running,
  users: BenchUser[],
  seconds: number,
  connections: number,
  amount?: number,
): Promise<LoadResult> {
  const requests = users.map((user) => ({
    method: 'GET' as const,
    path: '/v2/wallet',
    headers: { authorization: `Token ${user.token}` },
  }));
  const stride = Math.max(1, Math.floor(users.length / connections));
  const run = (duration: number, count?: number) => {
    let started = 0;
    return load(
      {
        url: server.url,
        connections,
        ...(count ? { amount: count } : { duration }),
        requests,
        setupClient: (client) => {
          const from = (started++ * stride) % requests.length;
          client.setRequests([...requests.slice(from), ...requests.slice(0, from)]);
        },
      },
      server,
    );
  };
  await run(2);
  return run(seconds, amount);
}

/**
 * P2P transfers through POST /v2/wallet/transfer: a random sender to a random other user, the right
 * PIN, a fresh Idempotency-Key each, 1.00 RUB. `connections` as many as pgbench's clients; `amount`
 * payments in all instead of `seconds` of them.
 */
export async function p2pTransfers(
  server: Running,
  users: BenchUser[],
  seconds: number,
  connections: number,
  amount?: number,
): Promise<LoadResult & { failures: Record<string, number> }> {
  const random = seeded(7);
  const failures: Record<string, number> = {};
  const requests = [
    {
      method: 'POST',
      path: '/v2/wallet/transfer',
      setupRequest: (request: autocannon.Request) => {
        const from = Math.floor(random() * users.length);
        let to = Math.floor(random() * users.length);
        if (to === from) to = (to + 1) % users.length;
        return {
          ...request,
          headers: {
            authorization: `Token ${users[from]!.token}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ phone: users[to]!.phone, amount: '1.00', currency_code: 'RUB', pin: PIN }),
        };
      },
      onResponse: (status: number, body: string) => {
        if (status !== 200) {
          const code = /"code":"([A-Z_]+)"/.exec(body)?.[1] ?? String(status);
          failures[code] = (failures[code] ?? 0) + 1;
        }
      },
    },
  ];
  const result = await load(
    { url: server.url, connections, ...(amount ? { amount } : { duration: seconds }), requests },
    server,
  );
  if (Object.keys(failures).length > 0) log(`p2p failures: ${JSON.stringify(failures)}`);
  return { ...result, failures };
}

export { call };
