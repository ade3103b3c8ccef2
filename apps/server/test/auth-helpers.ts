/** Shared steps of the auth tests: register through the real API and read codes from the sandbox outbox. */
import { expect } from 'vitest';
import { TERMS_VERSION } from '../src/modules/terms/service.ts';
import type { TestServer } from './helpers.ts';
import { uniquePhone } from './helpers.ts';

export const PERSON = {
  first_name: 'Иван',
  last_name: 'Петров',
  email: 'ivan@example.com',
  terms_version: TERMS_VERSION,
};

/** The newest code the sandbox outbox holds for a phone (the only place a code may appear). */
export async function lastCode(server: TestServer, phone: string): Promise<string> {
  const { status, body } = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  expect(status).toBe(200);
  // Notices to the owner carry no code: the newest text that has one.
  const code = body.results.find((sms: { code: string }) => sms.code !== '')?.code;
  expect(code).toMatch(/^\d{4}$/);
  return code;
}

/** A wrong code for a phone: any four digits but the right one. */
export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 10_000).padStart(4, '0');
}

/** Registers and confirms a new user; answers the phone and its auth token. */
export async function registeredUser(
  server: TestServer,
  options: { phone?: string; pin?: string; headers?: Record<string, string> } = {},
): Promise<{ phone: string; token: string }> {
  const phone = options.phone ?? uniquePhone();
  const headers = options.headers ?? {};
  const started = await server.call('POST', '/v2/wallet/auth/register', {
    body: { ...PERSON, phone },
    headers,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const confirmed = await server.call('POST', '/v2/wallet/auth/register/phone/confirm', {
    body: { phone, confirm_code: await lastCode(server, phone) },
    headers,
  });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  const token: string = confirmed.body.auth_token;
  if (options.pin) {
    const pin = await server.call('POST', '/v2/wallet/auth/register/set/pin', {
      body: { pin_code: options.pin },
      token,
    });
    expect(pin.status).toBe(200);
  }
  return { phone, token };
}

/** Row counts of every table the auth calls write, to prove a refused call changed nothing. */
export async function authRowCounts(server: TestServer): Promise<Record<string, number>> {
  const tables = [
    'users',
    'sessions',
    'pending_registrations',
    'auth_codes',
    'sandbox_sms_outbox',
    'rate_limits',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await server.ctx.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${table}`);
    counts[table] = rows[0]!.n;
  }
  // Wrong codes and PINs are counted in place, so the counters are part of "nothing changed".
  const { rows } = await server.ctx.db.query<{ tries: number; pins: number; hits: number; revoked: number }>(
    `SELECT (SELECT coalesce(sum(failed_tries), 0)::integer FROM auth_codes) AS tries,
            (SELECT coalesce(sum(pin_failures), 0)::integer FROM users) AS pins,
            (SELECT coalesce(sum(cardinality(hits)), 0)::integer FROM rate_limits) AS hits,
            (SELECT count(*)::integer FROM sessions WHERE revoked_at IS NOT NULL) AS revoked`,
  );
  return { ...counts, ...rows[0]! };
}

/** What a code beyond signing in is asked for: a step of one's own, or one held operation. */
export type OwnCodeFor = 'unfreeze' | 'close_wallet' | { hold: string };

/**
 * A fresh code to the person's own phone for one step, asked as the app asks it (the resend cooldown
 * passed on the test clock): it confirms that step only.
 */
export async function ownCode(
  server: TestServer,
  who: { phone: string; token: string },
  confirms: OwnCodeFor,
): Promise<string> {
  server.clock.advance(61_000);
  const sent =
    typeof confirms === 'string'
      ? await server.call('POST', '/v2/wallet/auth/send_code', {
          body: { phone: who.phone, purpose: confirms },
        })
      : await server.call('POST', `/v2/wallet/holds/${confirms.hold}/code`, { token: who.token });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return lastCode(server, who.phone);
}
