import { createHash, createHmac } from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/context.ts';
import { sweepExpired } from '../src/modules/auth/sweep.ts';
import sandboxSmsRoutes from '../src/modules/sandbox-sms/routes.ts';
import { TERMS_VERSION } from '../src/modules/terms/service.ts';
import type { SmsProvider } from '../src/providers/sms/sms-provider.ts';
import { hashToken } from '../src/sessions/tokens.ts';
import { lastCode, PERSON, registeredUser, wrongCode } from './auth-helpers.ts';
import {
  databaseLabel,
  isErrorShape,
  startTestServer,
  type TestServer,
  uniquePhone,
  withLevels,
} from './helpers.ts';

const REGISTER = '/v2/wallet/auth/register';
const CONFIRM = '/v2/wallet/auth/register/phone/confirm';
const SET_PIN = '/v2/wallet/auth/register/set/pin';
const SEND_CODE = '/v2/wallet/auth/send_code';
const LOGIN = '/v2/wallet/auth/login';
const INFO = '/v2/wallet/auth/info';
const LOGOUT = '/v2/wallet/auth/logout';
const SESSIONS = '/v2/wallet/auth/sessions';

describe(`sign-up and sign-in (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    // Each test speaks from its own address (X-Forwarded-For), so the per-address cap is tested on purpose only.
    server = await startTestServer({ env: { TRUST_PROXY: '1', SMS_PER_ADDRESS_PER_HOUR: '6' } });
  });
  afterAll(() => server.close());

  let addressCounter = 0;
  const newAddress = () => {
    addressCounter += 1;
    return { 'x-forwarded-for': `198.51.100.${addressCounter}` };
  };

  it('registers, confirms, sets the PIN, reads auth info, signs out: then the token is dead', async () => {
    const phone = uniquePhone();
    const headers = newAddress();
    const started = await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'success', message: expect.any(String), resend_after: 60 });
    expect(started.body.message).toContain(phone);

    const code = await lastCode(server, phone);
    const confirmed = await server.call('POST', CONFIRM, { body: { phone, confirm_code: code }, headers });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      status: 'success',
      message: 'Номер подтверждён',
      auth_token: expect.any(String),
    });
    const token = confirmed.body.auth_token;
    expect(token.length).toBeGreaterThanOrEqual(43);

    const before = await server.call('GET', INFO, { token });
    expect(before.body.has_pin).toBe(false);

    const pin = await server.call('POST', SET_PIN, { body: { pin_code: '2580' }, token });
    expect(pin.status).toBe(200);
    expect(pin.body.status).toBe('success');
    const again = await server.call('POST', SET_PIN, { body: { pin_code: '1111' }, token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('PIN_ALREADY_SET');

    const info = await server.call('GET', INFO, { token });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      first_name: 'Иван',
      last_name: 'Петров',
      phone,
      email: 'ivan@example.com',
      registered_at: server.clock.now().toISOString(),
      has_pin: true,
      identification_level: { name: 'anonymous', ask_for_next: true },
      active_identification: null,
      is_topup_allowed: true,
      is_withdrawal_allowed: false,
      is_transfer_allowed: false,
      is_exchange_allowed: false,
      is_frozen: false,
      limits: {
        currency_code: 'RUB',
        balance_max: '15000.00',
        monthly_outgoing_max: '40000.00',
        monthly_outgoing_used: '0.00',
        monthly_outgoing_left: '40000.00',
      },
      terms: { version: TERMS_VERSION, accepted: true },
    });

    const out = await server.call('POST', LOGOUT, { token });
    expect(out.status).toBe(200);
    expect(out.body.status).toBe('success');
    for (const [method, url] of [
      ['GET', INFO],
      ['POST', LOGOUT],
      ['GET', SESSIONS],
    ] as const) {
      const dead = await server.call(method, url, { token });
      expect(dead.status).toBe(401);
      expect(dead.body).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: 'Войдите снова' });
    }

    // Sign in again with a new code.
    const sent = await server.call('POST', SEND_CODE, { body: { phone }, headers });
    expect(sent.status).toBe(200);
    const login = await server.call('POST', LOGIN, {
      body: { phone, confirm_code: await lastCode(server, phone) },
    });
    expect(login.status).toBe(200);
    expect(login.body.auth_token).not.toBe(token);
    expect((await server.call('GET', INFO, { token: login.body.auth_token })).body.phone).toBe(phone);
  });

  it('auth info follows the level table: simplified and full users, and configured overrides', async () => {
    const { phone, token } = await registeredUser(server, { headers: newAddress() });
    await server.ctx.db.query("UPDATE users SET identification_level = 'full' WHERE phone = $1", [phone]);
    const full = (await server.call('GET', INFO, { token })).body;
    expect(full.identification_level).toEqual({ name: 'full', ask_for_next: false });
    expect(full.is_withdrawal_allowed && full.is_transfer_allowed && full.is_topup_allowed).toBe(true);
    expect(full.limits.monthly_outgoing_max).toBeNull();
    expect(full.limits.monthly_outgoing_left).toBeNull();
    expect(full.limits.balance_max).toBe('600000.00');

    await server.ctx.db.query("UPDATE users SET identification_level = 'simplified' WHERE phone = $1", [
      phone,
    ]);
    const simplified = (await server.call('GET', INFO, { token })).body;
    expect(simplified.identification_level).toEqual({ name: 'simplified', ask_for_next: true });
    expect(simplified.limits.monthly_outgoing_max).toBe('200000.00');
    expect(simplified.is_transfer_allowed).toBe(true);

    // Another instance on the same database with overridden level rules.
    const custom = await buildApp(
      {
        ...server.ctx,
        config: withLevels(server.config, '{"anonymous":{"balance_max":1000,"withdrawal":true}}'),
      },
      { logger: false },
    );
    try {
      const user = await registeredUser(server, { headers: newAddress() });
      const answer = await custom.inject({
        method: 'GET',
        url: INFO,
        headers: { authorization: `Token ${user.token}` },
      });
      const info = JSON.parse(answer.body);
      expect(info.limits.balance_max).toBe('1000.00');
      expect(info.is_withdrawal_allowed).toBe(true);
    } finally {
      await custom.close();
    }
  });

  it('answers a registration of a registered phone as any other, sends the owner a notice with no code', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    const fresh = uniquePhone();
    const known = await server.call('POST', REGISTER, {
      body: { ...PERSON, phone, email: 'other@example.com' },
      headers: newAddress(),
    });
    const unknown = await server.call('POST', REGISTER, {
      body: { ...PERSON, phone: fresh, email: 'other@example.com' },
      headers: newAddress(),
    });
    expect(known.status).toBe(200);
    expect({ ...known.body, message: known.body.message.replace(phone, 'P') }).toEqual({
      ...unknown.body,
      message: unknown.body.message.replace(fresh, 'P'),
    });
    const texts = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results;
    expect(texts[0].code).toBe('');
    expect(texts[0].text).not.toMatch(/\d{4}/);
    expect(texts[0].text).toContain('уже есть кошелёк');
    // Its confirmation is a wrong code, counted as for any number, and the user's data is untouched.
    const confirm = await server.call('POST', CONFIRM, { body: { phone, confirm_code: '0000' } });
    const confirmFresh = await server.call('POST', CONFIRM, {
      body: { phone: fresh, confirm_code: wrongCode(await lastCode(server, fresh)) },
    });
    expect([confirm.status, confirm.body]).toEqual([confirmFresh.status, confirmFresh.body]);
    expect(confirm.body.code).toBe('CODE_INVALID');
    const { rows } = await server.ctx.db.query('SELECT email FROM users WHERE phone = $1', [phone]);
    expect(rows).toEqual([{ email: 'ivan@example.com' }]);
    const tries = await server.ctx.db.query<{ phone: string; failed_tries: number }>(
      'SELECT phone, failed_tries FROM auth_codes WHERE phone = ANY($1::text[]) ORDER BY phone = $2',
      [[phone, fresh], phone],
    );
    expect(tries.rows.map((r) => r.failed_tries)).toEqual([1, 1]);
  });

  it('answers login, send_code and confirm alike for known and unknown phones', async () => {
    const { phone: known } = await registeredUser(server, { headers: newAddress() });
    const unknown = uniquePhone();
    const strip = (body: { message?: string }, phone: string) => ({
      ...body,
      message: body.message?.replace(phone, 'P'),
    });
    const both = async (call: (phone: string) => Promise<{ status: number; body: any }>) => {
      const a = await call(known);
      const b = await call(unknown);
      expect([a.status, strip(a.body, known)]).toEqual([b.status, strip(b.body, unknown)]);
      return a;
    };
    // Before any code: a wrong code.
    expect(
      (await both((phone) => server.call('POST', LOGIN, { body: { phone, confirm_code: '1234' } }))).body
        .code,
    ).toBe('CODE_INVALID');
    await both((phone) => server.call('POST', CONFIRM, { body: { phone, confirm_code: '1234' } }));
    // A code is "sent" to both; only the known phone really gets one.
    const sent = await both((phone) =>
      server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }),
    );
    expect(sent.status).toBe(200);
    expect(
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(unknown)}`)).body.results,
    ).toEqual([]);
    // The cooldown, the tries and their end are the same.
    const again = await both((phone) =>
      server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }),
    );
    expect(again.body.code).toBe('CODE_RESEND_TOO_SOON');
    const code = await lastCode(server, known);
    for (let i = 0; i < 5; i++)
      await both((phone) => server.call('POST', LOGIN, { body: { phone, confirm_code: wrongCode(code) } }));
    const dead = await both((phone) => server.call('POST', LOGIN, { body: { phone, confirm_code: code } }));
    expect(dead.body.code).toBe('CODE_TRIES_EXCEEDED');
    const english = await server.call('POST', LOGIN, {
      body: { phone: unknown, confirm_code: '1234' },
      headers: { 'accept-language': 'en' },
    });
    expect(english.body.message).toBe('Too many wrong attempts. Please request a new code');
  });

  it('stays alike after a registration was started for both numbers (the fuzzer found these sequences)', async () => {
    const { phone: known } = await registeredUser(server, { headers: newAddress() });
    const unknown = uniquePhone();
    const pair = async (call: (phone: string) => Promise<{ status: number; body: any }>) => {
      const a = await call(known);
      const b = await call(unknown);
      const strip = (body: { message?: string }, phone: string) => ({
        ...body,
        message: body.message?.replace(phone, 'P'),
      });
      expect([a.status, strip(a.body, known)]).toEqual([b.status, strip(b.body, unknown)]);
      return a.body;
    };
    await pair((phone) =>
      server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() }),
    );
    server.clock.advance(61_000);
    // A new code after a registration was started: the same kind of code for both numbers.
    await pair((phone) => server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() }));
    server.clock.advance(1_000);
    expect(
      (
        await pair((phone) =>
          server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() }),
        )
      ).resend_after,
    ).toBe(59);
    const answers: string[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        (await pair((phone) => server.call('POST', CONFIRM, { body: { phone, confirm_code: '0000' } }))).code,
      );
    expect(answers.at(-1)).toBe('CODE_TRIES_EXCEEDED');
    // The owner still signs in with a code sent after someone started a registration of their number.
    server.clock.advance(61_000);
    await server.call('POST', SEND_CODE, { body: { phone: known }, headers: newAddress() });
    const signedIn = await server.call('POST', LOGIN, {
      body: { phone: known, confirm_code: await lastCode(server, known) },
    });
    expect(signedIn.status).toBe(200);
  });

  it('allows at most 10 wrong codes per phone in 24 hours across codes, tells the owner, and recovers', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    const unknown = uniquePhone();
    const tryWrong = async (target: string, n: number) => {
      const answers: string[] = [];
      for (let i = 0; i < n; i++) {
        const answer = await server.call('POST', LOGIN, { body: { phone: target, confirm_code: '0000' } });
        answers.push(answer.body.code);
      }
      return answers;
    };
    // Two codes of 5 wrong tries each: the tenth wrong code locks the phone.
    const codes: string[] = [];
    for (const round of [0, 1]) {
      for (const target of [phone, unknown])
        expect(
          (await server.call('POST', SEND_CODE, { body: { phone: target }, headers: newAddress() })).status,
        ).toBe(200);
      codes.push(await lastCode(server, phone));
      const answers = await tryWrong(phone, 5);
      expect(await tryWrong(unknown, 5)).toEqual(answers);
      expect(answers.at(-1)).toBe(round === 0 ? 'CODE_TRIES_EXCEEDED' : 'CODE_LOCKED');
      server.clock.advance(61_000);
    }
    // The owner is told, with no code in the text.
    const texts = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results;
    expect(texts[0].code).toBe('');
    expect(texts[0].text).toContain('слишком много неверных кодов');
    expect(texts[0].text).not.toMatch(/\d{4}/);
    // Locked: no new code, and even a right code is refused, for known and unknown alike.
    for (const target of [phone, unknown]) {
      const send = await server.call('POST', SEND_CODE, { body: { phone: target }, headers: newAddress() });
      expect(send.status).toBe(429);
      expect(send.body).toEqual({
        status: 'error',
        code: 'CODE_LOCKED',
        message: 'Слишком много неверных кодов для этого номера. Попробуйте через 24 ч',
      });
    }
    // Recovery: when the oldest wrong code is a day old, one more try is allowed (never more than 10 a day).
    server.clock.advance(24 * 3600_000);
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() })).status).toBe(
      200,
    );
    const ok = await server.call('POST', LOGIN, {
      body: { phone, confirm_code: await lastCode(server, phone) },
    });
    expect(ok.status).toBe(200);
  });

  it("support can lift a phone's wrong-code lock (ops codes-unlock)", async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    for (let round = 0; round < 2; round++) {
      await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
      for (let i = 0; i < 5; i++) await server.call('POST', LOGIN, { body: { phone, confirm_code: '0000' } });
      server.clock.advance(61_000);
    }
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() })).body.code).toBe(
      'CODE_LOCKED',
    );
    const { runOps } = await import('../src/ops/cli.ts');
    const out: string[] = [];
    expect(await runOps(['codes-unlock', phone], { ctx: server.ctx, print: (line) => out.push(line) })).toBe(
      0,
    );
    expect(out.join('\n')).toContain(phone);
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() })).status).toBe(
      200,
    );
  });

  it('send_code re-sends the registration code while a registration waits (register step 2)', async () => {
    const phone = uniquePhone();
    const headers = newAddress();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers });
    const first = await lastCode(server, phone);
    server.clock.advance(61_000);
    const resent = await server.call('POST', SEND_CODE, { body: { phone }, headers });
    expect(resent.status).toBe(200);
    expect(resent.body.resend_after).toBe(60);
    const second = await lastCode(server, phone);
    const outbox = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results;
    expect(outbox).toHaveLength(2);
    // Only the newest code is alive.
    if (first !== second) {
      const old = await server.call('POST', CONFIRM, { body: { phone, confirm_code: first } });
      expect(old.body.code).toBe('CODE_INVALID');
    }
    const confirmed = await server.call('POST', CONFIRM, { body: { phone, confirm_code: second } });
    expect(confirmed.status).toBe(200);
    // A login code cannot confirm a registration and the used code is gone.
    const reuse = await server.call('POST', CONFIRM, { body: { phone, confirm_code: second } });
    expect(reuse.body.code).toBe('CODE_INVALID');
    const reuseLogin = await server.call('POST', LOGIN, { body: { phone, confirm_code: second } });
    expect(reuseLogin.body.code).toBe('CODE_INVALID');
  });

  it('refuses a wrong code, and kills the code after 5 wrong tries', async () => {
    const phone = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    const wrong = wrongCode(code);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const answer = await server.call('POST', CONFIRM, { body: { phone, confirm_code: wrong } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 'error', code: 'CODE_INVALID', message: 'Неверный код' });
    }
    const fifth = await server.call('POST', CONFIRM, { body: { phone, confirm_code: wrong } });
    expect(fifth.body.code).toBe('CODE_TRIES_EXCEEDED');
    // Dead: even the right code no longer works.
    const right = await server.call('POST', CONFIRM, { body: { phone, confirm_code: code } });
    expect(right.status).toBe(400);
    expect(right.body).toEqual({
      status: 'error',
      code: 'CODE_TRIES_EXCEEDED',
      message: 'Слишком много неверных попыток. Запросите новый код',
    });
    expect((await server.ctx.db.query('SELECT 1 FROM users WHERE phone = $1', [phone])).rows).toHaveLength(0);

    // A new code brings a fresh count of tries.
    server.clock.advance(60_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    const fresh = await lastCode(server, phone);
    expect(
      (await server.call('POST', CONFIRM, { body: { phone, confirm_code: wrongCode(fresh) } })).body.code,
    ).toBe('CODE_INVALID');
    expect((await server.call('POST', CONFIRM, { body: { phone, confirm_code: fresh } })).status).toBe(200);
  });

  it('counts wrong login codes the same way', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    server.clock.advance(60_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    const codes: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      codes.push(
        (await server.call('POST', LOGIN, { body: { phone, confirm_code: wrongCode(code) } })).body.code,
      );
    }
    expect(codes).toEqual([
      'CODE_INVALID',
      'CODE_INVALID',
      'CODE_INVALID',
      'CODE_INVALID',
      'CODE_TRIES_EXCEEDED',
    ]);
    expect((await server.call('POST', LOGIN, { body: { phone, confirm_code: code } })).body.code).toBe(
      'CODE_TRIES_EXCEEDED',
    );
  });

  it('refuses an expired code (valid 5 minutes)', async () => {
    const { phone } = await registeredUser(server, { headers: newAddress() });
    server.clock.advance(60_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    server.clock.advance(5 * 60_000 - 1000);
    // Still valid a second before the end: proven by a wrong try that is not "expired".
    expect(
      (await server.call('POST', LOGIN, { body: { phone, confirm_code: wrongCode(code) } })).body.code,
    ).toBe('CODE_INVALID');
    server.clock.advance(1000);
    const expired = await server.call('POST', LOGIN, { body: { phone, confirm_code: code } });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({
      status: 'error',
      code: 'CODE_EXPIRED',
      message: 'Срок действия кода истёк. Запросите новый код',
    });

    const registering = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone: registering }, headers: newAddress() });
    const registrationCode = await lastCode(server, registering);
    server.clock.advance(5 * 60_000);
    expect(
      (await server.call('POST', CONFIRM, { body: { phone: registering, confirm_code: registrationCode } }))
        .body.code,
    ).toBe('CODE_EXPIRED');
  });

  it('sends a new code not before 60 s, and says how long to wait', async () => {
    const phone = uniquePhone();
    const headers = newAddress();
    expect((await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers })).status).toBe(200);
    server.clock.advance(20_500);
    const soon = await server.call('POST', SEND_CODE, { body: { phone }, headers });
    expect(soon.status).toBe(429);
    expect(soon.body).toEqual({
      status: 'error',
      code: 'CODE_RESEND_TOO_SOON',
      message: 'Новый код можно запросить через 40 с',
    });
    // Back to step 1 and on again with the same number and data: the code already sent stays
    // valid, nothing new is sent, and resend_after says how long 'send again' waits.
    const registerAgain = await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers });
    expect(registerAgain.status).toBe(200);
    expect(registerAgain.body.resend_after).toBe(40);
    // Other data (a corrected e-mail, or anyone else's) never rides on the code already sent: it
    // waits for the cooldown and gets its own code.
    const changed = await server.call('POST', REGISTER, {
      body: { ...PERSON, phone, email: 'fixed@example.com' },
      headers: newAddress(),
    });
    expect(changed.status).toBe(429);
    expect(changed.body.code).toBe('CODE_RESEND_TOO_SOON');
    expect(
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results,
    ).toHaveLength(1);
    const { rows: pending } = await server.ctx.db.query(
      'SELECT email FROM pending_registrations WHERE phone = $1',
      [phone],
    );
    expect(pending).toEqual([{ email: PERSON.email }]);
    server.clock.advance(39_500);
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers })).status).toBe(200);
    const outbox = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results;
    expect(outbox).toHaveLength(2);
  });

  it('sends at most 5 codes per phone per hour (a sliding hour)', async () => {
    const phone = uniquePhone();
    const sends: number[] = [];
    for (let i = 0; i < 5; i++) {
      const path = i === 0 ? REGISTER : SEND_CODE;
      const body = i === 0 ? { ...PERSON, phone } : { phone };
      sends.push((await server.call('POST', path, { body, headers: newAddress() })).status);
      server.clock.advance(61_000);
    }
    expect(sends).toEqual([200, 200, 200, 200, 200]);
    const sixth = await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({
      status: 'error',
      code: 'SMS_LIMIT_PHONE',
      message: 'Слишком много кодов на этот номер. Попробуйте через час',
    });
    // The first send was 5 x 61 s ago; it leaves the hour at 3600 s.
    server.clock.advance(3600_000 - 5 * 61_000 - 1000);
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() })).body.code).toBe(
      'SMS_LIMIT_PHONE',
    );
    server.clock.advance(1000);
    expect((await server.call('POST', SEND_CODE, { body: { phone }, headers: newAddress() })).status).toBe(
      200,
    );
  });

  it('caps codes per client address (registration floods), other addresses unaffected', async () => {
    const flooder = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await server.call('POST', REGISTER, { body: { ...PERSON, phone: uniquePhone() }, headers: flooder }))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    const phone = uniquePhone();
    const seventh = await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: flooder });
    expect(seventh.status).toBe(429);
    expect(seventh.body).toEqual({
      status: 'error',
      code: 'SMS_LIMIT_ADDRESS',
      message: 'Слишком много запросов кодов. Попробуйте позже',
    });
    // Refused: nothing kept, nothing sent.
    expect(
      (await server.ctx.db.query('SELECT 1 FROM pending_registrations WHERE phone = $1', [phone])).rows,
    ).toEqual([]);
    expect(
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results,
    ).toEqual([]);
    // send_code is capped by the same counter.
    const { phone: known } = await registeredUser(server, { headers: newAddress() });
    server.clock.advance(60_000);
    expect(
      (await server.call('POST', SEND_CODE, { body: { phone: known }, headers: flooder })).body.code,
    ).toBe('SMS_LIMIT_ADDRESS');
    expect(
      (await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() })).status,
    ).toBe(200);
    // An hour later the address may send again.
    server.clock.advance(3600_000);
    expect(
      (await server.call('POST', REGISTER, { body: { ...PERSON, phone: uniquePhone() }, headers: flooder }))
        .status,
    ).toBe(200);
  });

  it('keeps IPv6 clients of one /64 under one cap', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const headers = { 'x-forwarded-for': `2001:db8:77:1::${i.toString(16)}` };
      statuses.push(
        (await server.call('POST', REGISTER, { body: { ...PERSON, phone: uniquePhone() }, headers })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('never answers the code except in the sandbox outbox; stores code, PIN and token only hashed', async () => {
    const phone = uniquePhone();
    const headers = newAddress();
    const answers: unknown[] = [];
    answers.push((await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers })).body);
    const code = await lastCode(server, phone);
    const stored = await server.ctx.db.query<{ code_hash: Uint8Array }>(
      'SELECT code_hash FROM auth_codes WHERE phone = $1',
      [phone],
    );
    const codeHash = Buffer.from(stored.rows[0]!.code_hash);
    expect(codeHash).toHaveLength(32);
    expect(codeHash.toString('latin1')).not.toContain(code);
    expect(codeHash.toString('hex')).not.toContain(Buffer.from(code).toString('hex'));
    // Not a plain, unkeyed hash of the code either (10,000 of those are one table lookup away).
    expect(codeHash.equals(createHash('sha256').update(code).digest())).toBe(false);

    answers.push(
      (await server.call('POST', CONFIRM, { body: { phone, confirm_code: wrongCode(code) } })).body,
    );
    const confirmed = await server.call('POST', CONFIRM, { body: { phone, confirm_code: code } });
    answers.push(confirmed.body);
    const token = confirmed.body.auth_token;
    answers.push((await server.call('POST', SET_PIN, { body: { pin_code: '4826' }, token })).body);
    answers.push((await server.call('GET', INFO, { token })).body);
    answers.push((await server.call('GET', SESSIONS, { token })).body);
    for (const answer of answers) {
      // The phone, the token, dates, ids and amounts may hold any four digits by chance: the code
      // must not appear as a number of its own anywhere else.
      const text = JSON.stringify(answer)
        .replaceAll(phone, '')
        .replaceAll(token, '')
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '');
      expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z.])${code}(?![0-9A-Za-z.])`));
    }
    // The SMS says the code in Russian by default, in English when asked.
    const sms = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results[0];
    expect(sms).toEqual({
      phone,
      code,
      text: `Код ${code}: регистрация в E-Wallet. Никому не сообщайте.`,
      created_at: expect.any(String),
    });
    const english = uniquePhone();
    await server.call('POST', REGISTER, {
      body: { ...PERSON, phone: english },
      headers: { ...newAddress(), 'accept-language': 'en-US,en;q=0.9' },
    });
    const englishCode = await lastCode(server, english);
    const englishSms = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(english)}`)).body
      .results[0];
    expect(englishSms.text).toBe(`Code ${englishCode}: E-Wallet sign-up. Never share it.`);

    // Token: only its SHA-256 is stored.
    const sessions = await server.ctx.db.query<{ token_hash: Uint8Array }>(
      'SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.phone = $1',
      [phone],
    );
    expect(sessions.rows).toHaveLength(1);
    const tokenHash = Buffer.from(sessions.rows[0]!.token_hash);
    expect(tokenHash.equals(hashToken(token))).toBe(true);
    expect(tokenHash.toString('latin1')).not.toContain(token);

    // PIN: HMAC-SHA-256(PIN_KEY, salt || pin) with a per-user salt and the key version.
    const user = await server.ctx.db.query<{
      pin_hash: Uint8Array;
      pin_salt: Uint8Array;
      pin_key_version: number;
    }>('SELECT pin_hash, pin_salt, pin_key_version FROM users WHERE phone = $1', [phone]);
    const row = user.rows[0]!;
    const salt = Buffer.from(row.pin_salt);
    expect(salt.length).toBeGreaterThanOrEqual(16);
    expect(row.pin_key_version).toBe(1);
    const expected = createHmac('sha256', server.config.PIN_KEY)
      .update(Buffer.concat([salt, Buffer.from('4826')]))
      .digest();
    expect(Buffer.from(row.pin_hash).equals(expected)).toBe(true);
    expect(Buffer.from(row.pin_hash).toString('latin1')).not.toContain('4826');
    // Another user with the same PIN gets another salt and another hash.
    const other = await registeredUser(server, { pin: '4826', headers: newAddress() });
    const otherRow = (
      await server.ctx.db.query<{ pin_hash: Uint8Array; pin_salt: Uint8Array }>(
        'SELECT pin_hash, pin_salt FROM users WHERE phone = $1',
        [other.phone],
      )
    ).rows[0]!;
    expect(Buffer.from(otherRow.pin_salt).equals(salt)).toBe(false);
    expect(Buffer.from(otherRow.pin_hash).equals(Buffer.from(row.pin_hash))).toBe(false);
  });

  it('lists sessions, ends other sessions, and ends one session by id but never another user’s', async () => {
    const headers = newAddress();
    const { phone, token: first } = await registeredUser(server, { headers });
    server.clock.advance(61_000);
    const signIn = async () => {
      await server.call('POST', SEND_CODE, { body: { phone }, headers });
      server.clock.advance(61_000);
      const answer = await server.call('POST', LOGIN, {
        body: { phone, confirm_code: await lastCode(server, phone) },
        headers: { 'user-agent': 'Phone browser' },
      });
      return answer.body.auth_token as string;
    };
    const second = await signIn();
    const third = await signIn();

    const list = await server.call('GET', SESSIONS, { token: second });
    expect(list.status).toBe(200);
    expect(list.body.next).toBeNull();
    expect(list.body.results).toHaveLength(3);
    expect(list.body.results.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const current = list.body.results.find((s: { current: boolean }) => s.current);
    expect(current.user_agent).toBe('Phone browser');

    // Someone else cannot end these sessions: answered as not found, and nothing is revoked.
    const stranger = await registeredUser(server, { headers: newAddress() });
    const target = list.body.results.find((s: { current: boolean }) => !s.current).id;
    const foreign = await server.call('DELETE', `${SESSIONS}/${target}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', code: 'SESSION_NOT_FOUND', message: 'Сеанс не найден' });
    const missing = await server.call('DELETE', `${SESSIONS}/00000000-0000-4000-8000-000000000000`, {
      token: second,
    });
    expect(missing.body.code).toBe('SESSION_NOT_FOUND');
    // Not a UUID at all is bad input (the contract's Id), answered before anything is looked up.
    const notUuid = await server.call('DELETE', `${SESSIONS}/${'-'.repeat(36)}`, { token: second });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.code).toBe('FIELD_INVALID');
    expect((await server.call('GET', SESSIONS, { token: second })).body.results).toHaveLength(3);

    const ended = await server.call('DELETE', `${SESSIONS}/${target}`, { token: second });
    expect(ended.status).toBe(200);
    expect((await server.call('DELETE', `${SESSIONS}/${target}`, { token: second })).body.code).toBe(
      'SESSION_NOT_FOUND',
    );
    expect((await server.call('GET', SESSIONS, { token: second })).body.results).toHaveLength(2);

    const others = await server.call('DELETE', SESSIONS, { token: second });
    expect(others.status).toBe(200);
    expect((await server.call('GET', INFO, { token: second })).status).toBe(200);
    for (const dead of [first, third]) {
      expect((await server.call('GET', INFO, { token: dead })).body.code).toBe('INVALID_TOKEN');
    }
    const left = (await server.call('GET', SESSIONS, { token: second })).body.results;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    // The stranger was not touched.
    expect((await server.call('GET', INFO, { token: stranger.token })).status).toBe(200);
  });

  it('sweeps abandoned registrations, dead codes and spent rate-limit keys, and nothing alive', async () => {
    const abandoned = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone: abandoned }, headers: newAddress() });
    server.clock.advance(25 * 3600_000);
    // Nothing is sent between the clock move and this sweep, so the send path's own sweep cannot pre-empt it.
    const swept = await sweepExpired(server.ctx);
    expect(swept.registrations).toBeGreaterThanOrEqual(1);
    expect(swept.codes).toBeGreaterThanOrEqual(1);
    expect(swept.rateLimits).toBeGreaterThanOrEqual(1);
    const left = async (table: string, phone: string) =>
      (await server.ctx.db.query(`SELECT 1 FROM ${table} WHERE phone = $1`, [phone])).rows.length;
    expect([await left('pending_registrations', abandoned), await left('auth_codes', abandoned)]).toEqual([
      0, 0,
    ]);
    const keys = async () => (await server.ctx.db.query<{ key: string }>('SELECT key FROM rate_limits')).rows;
    expect((await keys()).map((r) => r.key)).not.toContain(`sms:phone:${abandoned}`);

    // What is alive stays.
    const waiting = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone: waiting }, headers: newAddress() });
    await sweepExpired(server.ctx);
    expect([await left('pending_registrations', waiting), await left('auth_codes', waiting)]).toEqual([1, 1]);
    expect((await keys()).map((r) => r.key)).toContain(`sms:phone:${waiting}`);
    expect(
      (
        await server.call('POST', CONFIRM, {
          body: { phone: waiting, confirm_code: await lastCode(server, waiting) },
        })
      ).status,
    ).toBe(200);
  });

  it('binds registration data to its code: data changed under a code is not confirmed by it', async () => {
    const phone = uniquePhone();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers: newAddress() });
    const code = await lastCode(server, phone);
    // Even written straight into the table (no call can do it), other data fails the owner's code.
    await server.ctx.db.query(
      "UPDATE pending_registrations SET email = 'evil@example.com' WHERE phone = $1",
      [phone],
    );
    const confirmed = await server.call('POST', CONFIRM, { body: { phone, confirm_code: code } });
    expect(confirmed.body.code).toBe('CODE_INVALID');
    const { rows } = await server.ctx.db.query('SELECT 1 FROM users WHERE phone = $1', [phone]);
    expect(rows).toEqual([]);
  });

  it('serves the sandbox outbox newest first, for the phone asked only, with ?phone=+7 as typed', async () => {
    const phone = uniquePhone();
    const headers = newAddress();
    await server.call('POST', REGISTER, { body: { ...PERSON, phone }, headers });
    server.clock.advance(61_000);
    await server.call('POST', SEND_CODE, { body: { phone }, headers });
    const typed = await server.call('GET', `/sandbox/sms?phone=${phone}`);
    expect(typed.status).toBe(200);
    expect(typed.body.results).toHaveLength(2);
    const [newest, oldest] = typed.body.results;
    expect(newest.created_at > oldest.created_at).toBe(true);
    expect(newest.phone).toBe(phone);
    // Without a phone it lists nothing: a 400, never every phone's codes.
    const all = await server.call('GET', '/sandbox/sms');
    expect(all.status).toBe(400);
    expect(isErrorShape(all.body)).toBe(true);
    expect(JSON.stringify(all.body)).not.toContain(newest.code);
    const other = await server.call('GET', `/sandbox/sms?phone=${uniquePhone()}`);
    expect(other.body.results).toEqual([]);
    const bad = await server.call('GET', '/sandbox/sms?phone=12345');
    expect(bad.status).toBe(400);
    expect(isErrorShape(bad.body)).toBe(true);
  });
});

describe(`the sandbox outbox and other SMS providers (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Another server instance on the same database with a changed context. */
  async function appWith(change: Partial<AppContext>) {
    const app = await buildApp({ ...server.ctx, ...change }, { logger: false });
    await app.ready();
    return app;
  }

  it('registers no /sandbox/sms route in production', async () => {
    const register = async (production: boolean) => {
      const app = Fastify();
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      sandboxSmsRoutes(app, { ...server.ctx, config: { ...server.config, production } });
      await app.ready();
      const has = app.hasRoute({ method: 'GET', url: '/sandbox/sms' });
      await app.close();
      return has;
    };
    expect(await register(false)).toBe(true);
    expect(await register(true)).toBe(false);
  });

  it('has no /sandbox/sms with another SMS provider, and sends codes through that provider', async () => {
    const sent: Array<{ phone: string; text: string; code: string }> = [];
    const gateway: SmsProvider = {
      id: 'test-gateway',
      async send(sms) {
        sent.push(sms);
      },
    };
    const app = await appWith({ sms: gateway });
    try {
      const outbox = await app.inject({ method: 'GET', url: '/sandbox/sms' });
      expect(outbox.statusCode).toBe(404);
      expect(JSON.parse(outbox.body).code).toBe('NOT_FOUND');
      const phone = uniquePhone();
      const answer = await app.inject({ method: 'POST', url: REGISTER, payload: { ...PERSON, phone } });
      expect(answer.statusCode).toBe(200);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.phone).toBe(phone);
      expect(sent[0]!.text).toContain(sent[0]!.code);
      expect(
        (await app.inject({ method: 'POST', url: CONFIRM, payload: { phone, confirm_code: sent[0]!.code } }))
          .statusCode,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers PROVIDER_UNAVAILABLE when the gateway fails, and keeps no code', async () => {
    const gateway: SmsProvider = {
      id: 'broken-gateway',
      async send() {
        throw new Error('gateway down');
      },
    };
    const app = await appWith({ sms: gateway });
    try {
      const phone = uniquePhone();
      const answer = await app.inject({ method: 'POST', url: REGISTER, payload: { ...PERSON, phone } });
      expect(answer.statusCode).toBe(503);
      expect(JSON.parse(answer.body).code).toBe('PROVIDER_UNAVAILABLE');
      expect((await server.ctx.db.query('SELECT 1 FROM auth_codes WHERE phone = $1', [phone])).rows).toEqual(
        [],
      );
      // No cooldown was started by a code that never left: the person may try again at once.
      expect(
        (await app.inject({ method: 'POST', url: REGISTER, payload: { ...PERSON, phone } })).statusCode,
      ).toBe(503);
    } finally {
      await app.close();
    }
  });
});
