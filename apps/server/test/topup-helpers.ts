/** Shared steps of the top-up tests: users, top-up calls, the sandbox page's form, signed webhooks. */
import { expect } from 'vitest';
import { userAccount } from '../src/ledger/index.ts';
import { SIGNATURE_HEADER, signPayload } from '../src/providers/signature.ts';
import { registeredUser } from './auth-helpers.ts';
import type { TestServer } from './helpers.ts';

export const TOP_UP = '/v2/wallet/top-up';
export const STATUS = '/v2/wallet/top-up/status';
export const WEBHOOK = '/v2/wallet/webhooks/payments';

export async function newUser(server: TestServer): Promise<{ token: string; userId: string }> {
  const { phone, token } = await registeredUser(server);
  const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
    phone,
  ]);
  return { token, userId: rows[0]!.id };
}

export function topUp(
  server: TestServer,
  token: string,
  amount: string,
  options: { key?: string; currency?: string } = {},
) {
  return server.call('POST', TOP_UP, {
    token,
    body: { amount, currency_code: options.currency ?? 'RUB' },
    headers: options.key ? { 'idempotency-key': options.key } : {},
  });
}

/** Starts a top-up that must succeed; answers the order id and the payment page's path. */
export async function started(server: TestServer, token: string, amount: string, key?: string) {
  const res = await topUp(server, token, amount, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { order: res.body.order as string, url: res.body.url as string, body: res.body };
}

export function submitCard(server: TestServer, url: string, fields: Record<string, string>) {
  return server.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

export async function orderStatus(server: TestServer, token: string, order: string) {
  return server.call('GET', `${STATUS}?order=${order}`, { token });
}

export async function balance(server: TestServer, userId: string): Promise<bigint> {
  return (await userAccount(server.ctx.db, userId, 'RUB'))?.balance ?? 0n;
}

export function paymentWebhookBody(
  server: TestServer,
  fields: {
    event: 'payment.succeeded' | 'payment.canceled';
    payment_id: string;
    order: string;
    amount: string;
  },
): string {
  return JSON.stringify({ ...fields, currency_code: 'RUB', occurred_at: server.clock.now().toISOString() });
}

export function sendSigned(
  server: TestServer,
  raw: string,
  options: { secret?: string; header?: string } = {},
) {
  const header =
    options.header ?? signPayload(options.secret ?? server.config.WEBHOOK_SECRET, raw, server.clock.now());
  return server.call('POST', WEBHOOK, {
    body: raw,
    headers: { [SIGNATURE_HEADER]: header },
  });
}

export async function countRows(
  server: TestServer,
  table: 'topup_orders' | 'sandbox_payments' | 'ledger_transfers',
) {
  const { rows } = await server.ctx.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${table}`);
  return rows[0]!.n;
}
