/**
 * The code rules under concurrent requests. PGlite is one session, so this proves them on
 * PostgreSQL only, where requests run on separate connections as they would on several instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, PERSON, registeredUser, wrongCode } from './auth-helpers.ts';
import { startTestServer, type TestServer, uniquePhone, usePostgres } from './helpers.ts';

const REGISTER = '/v2/wallet/auth/register';
const CONFIRM = '/v2/wallet/auth/register/phone/confirm';
const SEND_CODE = '/v2/wallet/auth/send_code';
const LOGIN = '/v2/wallet/auth/login';

describe.runIf(usePostgres)('auth under concurrent requests (postgres)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', SMS_PER_ADDRESS_PER_HOUR: '6' } });
  });
  afterAll(() => server.close());

  let addressCounter = 0;
  const newAddress = () => {
    addressCounter += 1;
    return { 'x-forwarded-for': `192.0.2.${addressCounter}` };
  };
  const together = <T>(n: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => make(i)));
  const outboxSize = async (phone: string) =>
    (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results.length;

  it('sends one code when many ask at once (resend cooldown holds)', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    server.clock.advance(61_000);
    const answers = await together(10, () =>
      server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(429)]);
    expect(answers.filter((a) => a.body.code === 'CODE_RESEND_TOO_SOON')).toHaveLength(9);
    expect(await outboxSize(phone)).toBe(2);

    const fresh = uniquePhone();
    const registrations = await together(10, () =>
      server.call('POST', REGISTER, { body: { ...PERSON, phone: fresh }, headers: newAddress() }),
    );
    // One sends the code; the others, inside its cooldown, keep that code and send nothing.
    expect(registrations.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(registrations.map((a) => a.body.resend_after)).toEqual(Array(10).fill(60));
    expect(await outboxSize(fresh)).toBe(1);
  });

  it('counts concurrent wrong codes exactly: 5 tries, then dead', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    server.clock.advance(61_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    const answers = await together(12, () =>
      server.call('POST', LOGIN, { body: { phone, confirm_code: wrongCode(code) } }),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 'CODE_INVALID')).toHaveLength(4);
    expect(codes.filter((c) => c === 'CODE_TRIES_EXCEEDED')).toHaveLength(8);
    const { rows } = await server.ctx.db.query<{ failed_tries: number }>(
      'SELECT failed_tries FROM auth_codes WHERE phone = $1',
      [phone],
    );
    expect(rows[0]!.failed_tries).toBe(5);
    expect((await server.call('POST', LOGIN, { body: { phone, confirm_code: code } })).body.code).toBe(
      'CODE_TRIES_EXCEEDED',
    );
  });

  it('uses a right code once: one user, one session, one token', async () => {
    const phone = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    const confirms = await together(6, () =>
      server.call('POST', CONFIRM, { body: { phone, confirm_code: code } }),
    );
    expect(confirms.filter((a) => a.status === 200)).toHaveLength(1);
    const users = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [phone]);
    expect(users.rows).toHaveLength(1);
    const sessions = await server.ctx.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [
      users.rows[0]!.id,
    ]);
    expect(sessions.rows).toHaveLength(1);

    server.clock.advance(61_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    const loginCode = await lastCode(server, phone);
    const logins = await together(6, () =>
      server.call('POST', LOGIN, { body: { phone, confirm_code: loginCode } }),
    );
    expect(logins.filter((a) => a.status === 200)).toHaveLength(1);
    expect(
      (await server.ctx.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [users.rows[0]!.id])).rows,
    ).toHaveLength(2);
  });

  it('holds the per-address cap when one address floods at once', async () => {
    const flooder = newAddress();
    const answers = await together(15, () =>
      server.call('POST', REGISTER, { body: { ...PERSON, phone: uniquePhone() }, headers: flooder }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(6);
    expect(answers.filter((a) => a.body.code === 'SMS_LIMIT_ADDRESS')).toHaveLength(9);
  });

  it('holds the per-phone cap when one phone is asked for from many addresses at once', async () => {
    const phone = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() });
    for (let i = 0; i < 4; i++) {
      server.clock.advance(61_000);
      // Several at once each round: exactly one passes the cooldown.
      const round = await together(4, () =>
        server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }),
      );
      expect(round.filter((a) => a.status === 200)).toHaveLength(1);
    }
    server.clock.advance(61_000);
    const over = await together(4, () =>
      server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }),
    );
    expect(over.map((a) => a.body.code)).toEqual(Array(4).fill('SMS_LIMIT_PHONE'));
    expect(await outboxSize(phone)).toBe(5);
  });
});
