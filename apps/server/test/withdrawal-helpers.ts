/** Shared steps of the money-out tests (withdrawal, transfer, QR payment): people with money, balances, webhooks. */
import { randomUUID } from 'node:crypto';
import { accountChecksumOk } from '@e-wallet/contract';
import { expect } from 'vitest';
import type { EntryPhase, TransferKind } from '../src/ledger/index.ts';
import { moneyNotice, noticeEntrySql } from '../src/modules/notifications/service.ts';
import type { LevelName } from '../src/policy/levels.ts';
import type { PayoutsProvider } from '../src/providers/payouts/payouts-provider.ts';
import { signPayload } from '../src/providers/signature.ts';
import { registeredUser } from './auth-helpers.ts';
import { fund } from './fund.ts';
import type { TestServer } from './helpers.ts';

export const PIN = '1234';
export const GOOD_CARD = '4111 1111 1111 1111';
export const DECLINED_CARD = '4000 0000 0000 0002';
/** Another valid (Luhn) card: succeeds in the sandbox. */
export const OTHER_CARD = '5555 5555 5555 4444';

export interface Person {
  phone: string;
  token: string;
  userId: string;
}

/** A registered person with a PIN, at a level, with roubles (minor units) funded through the ledger. */
export async function person(
  server: TestServer,
  options: { level?: LevelName; rub?: bigint; pin?: string } = {},
): Promise<Person> {
  const { phone, token } = await registeredUser(server, { pin: options.pin ?? PIN });
  const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
    phone,
  ]);
  const userId = rows[0]!.id;
  await server.ctx.db.query('UPDATE users SET identification_level = $2 WHERE id = $1', [
    userId,
    options.level ?? 'simplified',
  ]);
  if (options.rub) await fund(server.ctx, userId, options.rub);
  return { phone, token, userId };
}

/** A person at the full level whose session is older than the antifraud new-session sign's 24 hours. */
export async function settledPerson(server: TestServer, roubles: number): Promise<Person> {
  const who = await person(server, { level: 'full', rub: BigInt(roubles) * 100n });
  await server.ctx.db.query(
    `UPDATE sessions SET created_at = created_at - interval '2 days' WHERE user_id = $1`,
    [who.userId],
  );
  return who;
}

/** Names a new full-level person as `who`'s trusted person at `threshold` roubles, and has them accept. */
export async function trustedPair(server: TestServer, who: Person, threshold: string): Promise<Person> {
  const olga = await person(server, { level: 'full' });
  const named = await server.call('PUT', '/v2/wallet/trusted-person', {
    token: who.token,
    body: { phone: olga.phone, threshold, new_payees: false },
  });
  expect(named.status, JSON.stringify(named.body)).toBe(200);
  const accepted = await server.call('POST', '/v2/wallet/trusted-person/accept', {
    token: olga.token,
    body: { id: who.userId },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return olga;
}

/** Sberbank's BIC and a payee's account of it with a valid control key (a GOST code's requisites). */
export const GOST_BIC = '044525225';
export function gostAccount(account: string): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = `${account.slice(0, 8)}${d}${account.slice(9)}`;
    if (accountChecksumOk(GOST_BIC, candidate)) return candidate;
  }
  throw new Error('no control key');
}
export const GOST_CORR = '30101810400000000225';
/** A company's account at GOST_BIC, as the tests' GOST codes name it. */
export const GOST_ACCOUNT = gostAccount('40702810000000012345');

/** What the person sees as the balance of an account (available money), as a decimal string. */
export async function balance(
  server: TestServer,
  who: Person,
  currency = 'RUB',
): Promise<string | undefined> {
  const { status, body } = await server.call('GET', '/v2/wallet', { token: who.token });
  expect(status).toBe(200);
  return body.results[0].accounts.find((a: { currency_code: string }) => a.currency_code === currency)
    ?.balance;
}

export function key(): string {
  return `test-${randomUUID()}`;
}

export async function withdraw(
  server: TestServer,
  who: Person,
  body: Partial<{ amount: string; pan: string; currency_code: string; pin: string }> = {},
  idempotencyKey?: string,
) {
  return server.call('POST', '/v2/wallet/withdrawal', {
    token: who.token,
    body: { amount: '100.00', pan: GOOD_CARD, currency_code: 'RUB', pin: PIN, ...body },
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
}

/** A payouts webhook signed like the provider signs it. */
export async function payoutWebhook(server: TestServer, payload: Record<string, unknown>, secret?: string) {
  const body = JSON.stringify(payload);
  return server.call('POST', '/v2/wallet/webhooks/payouts', {
    body,
    headers: { 'x-signature': signPayload(secret ?? server.config.WEBHOOK_SECRET, body, server.clock.now()) },
  });
}

/** The message keys of a person's notifications, oldest first: the stored ones and the money ones read from the ledger. */
export async function notificationKinds(server: TestServer, who: Person): Promise<string[]> {
  const { rows } = await server.ctx.db.query<{
    message_key: string | null;
    kind: TransferKind;
    phase: EntryPhase;
    amount: string;
  }>(
    `SELECT message_key, NULL AS kind, NULL AS phase, NULL AS amount, created_at FROM notifications WHERE user_id = $1
     UNION ALL
     SELECT NULL, e.kind, e.phase, e.amount::text, e.created_at FROM ledger_entries e
     WHERE e.user_id = $1 AND ${noticeEntrySql('e')}
     ORDER BY created_at`,
    [who.userId],
  );
  return rows.map((r) => r.message_key ?? moneyNotice(r.kind, r.phase, BigInt(r.amount)).messageKey);
}

/** Every row of every table of the database as text, searched for a string (secrets must never be stored). */
export async function tablesContaining(server: TestServer, needle: string): Promise<string[]> {
  const { rows: tables } = await server.ctx.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM "${table_name}" t WHERE t::text LIKE $1`,
      [`%${needle}%`],
    );
    if (rows[0]!.n > 0) found.push(table_name);
  }
  return found;
}

/**
 * Runs `call` with the payouts provider's payout call replaced (a time-out, an answer lost after the
 * payout), `replace` given the real one; the real one is back afterwards, whatever `call` did.
 */
export async function withPayoutCall<T>(
  server: TestServer,
  replace: (real: PayoutsProvider['payout']) => PayoutsProvider['payout'],
  call: () => Promise<T>,
): Promise<T> {
  const provider = server.ctx.payouts;
  const real = provider.payout;
  provider.payout = replace(real.bind(provider));
  try {
    return await call();
  } finally {
    provider.payout = real;
  }
}
