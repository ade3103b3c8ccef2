/** Shared steps of the merchants' tests: an approved merchant with a key, its API called with HTTP Basic. */
import { expect } from 'vitest';
import type { TestServer } from './helpers.ts';
import type { OpsServer, TestOperator } from './ops-helpers.ts';
import { GOST_BIC, gostAccount, type Person, person } from './withdrawal-helpers.ts';

/** A valid 12-digit INN (a person's) and a 10-digit one (a company's). */
export const PERSON_INN = '500100732259';
export const COMPANY_INN = '7707083893';
export const BANK_ACCOUNT = gostAccount('40802810000000000001');

export function application(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'self_employed',
    name: 'Торты Марины',
    inn: PERSON_INN,
    mcc: '5462',
    site_url: 'https://cakes.example.ru',
    bank_bic: GOST_BIC,
    bank_account: BANK_ACCOUNT,
    ...overrides,
  };
}

export interface TestMerchant {
  owner: Person;
  id: string;
  secret: string;
  /** A call of the merchant API with its key. */
  api(
    method: 'GET' | 'POST',
    url: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** A person at the full level who applied, was approved by a compliance operator, and made a key. */
export async function approvedMerchant(
  server: TestServer,
  back: OpsServer,
  compliance: TestOperator,
  overrides: Record<string, unknown> = {},
): Promise<TestMerchant> {
  const owner = await person(server, { level: 'full' });
  const applied = await server.call('POST', '/v2/wallet/merchant', {
    token: owner.token,
    body: application(overrides),
  });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const id = applied.body.merchant.id as string;
  const approved = await back.call('POST', `/ops/v1/merchants/${id}/approve`, { token: compliance.token });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const made = await server.call('POST', '/v2/wallet/merchant/keys', {
    token: owner.token,
    body: { name: 'shop' },
  });
  expect(made.status).toBe(200);
  const secret = made.body.key.secret as string;
  return {
    owner,
    id,
    secret,
    api: (method, url, options = {}) =>
      server.call(method, url, {
        ...(options.body !== undefined ? { body: options.body } : {}),
        headers: { authorization: basic(id, secret), ...options.headers },
      }),
  };
}

/** The balance of a ledger account, posted, in minor units. */
export async function accountBalance(server: TestServer, accountId: string): Promise<bigint> {
  const { rows } = await server.ctx.db.query<{ balance: string }>(
    'SELECT balance FROM ledger_accounts WHERE id = $1',
    [accountId],
  );
  return BigInt(rows[0]!.balance);
}

export async function merchantAccount(server: TestServer, merchantId: string): Promise<string> {
  const { rows } = await server.ctx.db.query<{ account_id: string }>(
    'SELECT account_id FROM merchants WHERE id = $1',
    [merchantId],
  );
  return rows[0]!.account_id;
}
