/**
 * Every auth call given bad input answers 4xx in the contract's error shape with a Russian
 * message, and changes nothing: row counts and counters are the same before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRowCounts, lastCode, PERSON, registeredUser } from './auth-helpers.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer, uniquePhone } from './helpers.ts';

interface BadCall {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  auth?: boolean;
  /** The error code expected, when one is certain. */
  code?: string;
}

const CYRILLIC = /[А-Яа-яЁё]/;

describe(`auth calls refuse bad input and change nothing (${databaseLabel})`, () => {
  let server: TestServer;
  let token: string;
  let phone: string;
  let pendingPhone: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { SMS_PER_ADDRESS_PER_HOUR: '1000' } });
    ({ token, phone } = await registeredUser(server, { pin: '1234' }));
    // A waiting registration with a live code: bad input must not count tries against it.
    pendingPhone = uniquePhone();
    await server.call('POST', '/v2/wallet/auth/register', { body: { ...PERSON, phone: pendingPhone } });
    await lastCode(server, pendingPhone);
  });
  afterAll(() => server.close());

  const person = () => ({ ...PERSON, phone: uniquePhone() });
  const cases = (): BadCall[] => {
    const register = (body: unknown, code?: string): BadCall => ({
      name: `register ${JSON.stringify(body)?.slice(0, 80)}`,
      method: 'POST',
      url: '/v2/wallet/auth/register',
      body,
      code,
    });
    const codeCalls = ['/v2/wallet/auth/register/phone/confirm', '/v2/wallet/auth/login'];
    const list: BadCall[] = [
      register({}, 'FIELD_REQUIRED'),
      register({ ...person(), first_name: undefined }, 'FIELD_REQUIRED'),
      register({ ...person(), last_name: undefined }, 'FIELD_REQUIRED'),
      register({ ...person(), email: undefined }, 'FIELD_REQUIRED'),
      register({ ...person(), phone: undefined }, 'FIELD_REQUIRED'),
      register({ ...person(), phone: 79991234567 }, 'FIELD_INVALID'),
      register({ ...person(), first_name: 42 }, 'FIELD_INVALID'),
      register({ ...person(), email: ['a@b.ru'] }, 'FIELD_INVALID'),
      register({ ...person(), first_name: null }, 'FIELD_INVALID'),
      register({ ...person(), is_admin: true }, 'FIELD_INVALID'),
      register({ ...person(), phone: '89991234567' }, 'FIELD_INVALID'),
      register({ ...person(), phone: '+7 999 123-45-67' }, 'FIELD_INVALID'),
      register({ ...person(), phone: '+7999abc4567' }, 'FIELD_INVALID'),
      register({ ...person(), phone: '+0123456789' }, 'FIELD_INVALID'),
      register({ ...person(), phone: '+7' }, 'FIELD_INVALID'),
      register({ ...person(), phone: `+7${'9'.repeat(20)}` }, 'FIELD_INVALID'),
      register({ ...person(), email: 'ivan@' }, 'FIELD_INVALID'),
      register({ ...person(), email: 'not an email' }, 'FIELD_INVALID'),
      register({ ...person(), email: `${'a'.repeat(250)}@example.com` }, 'FIELD_INVALID'),
      register({ ...person(), first_name: '' }, 'FIELD_INVALID'),
      register({ ...person(), first_name: '   ' }, 'FIELD_INVALID'),
      register({ ...person(), first_name: 'Иван2' }, 'FIELD_INVALID'),
      register({ ...person(), last_name: '<script>' }, 'FIELD_INVALID'),
      register({ ...person(), first_name: 'И'.repeat(101) }, 'FIELD_INVALID'),
      register([person()]),
      register('null'),
      register('"text"'),
      register('{"first_name":', 'INVALID_JSON'),
      register('', 'INVALID_JSON'),
      {
        name: 'register oversized body',
        method: 'POST',
        url: '/v2/wallet/auth/register',
        body: JSON.stringify({ ...person(), first_name: 'Я'.repeat(70_000) }),
        code: 'PAYLOAD_TOO_LARGE',
      },
      {
        name: 'register as a form',
        method: 'POST',
        url: '/v2/wallet/auth/register',
        body: 'first_name=Ivan&last_name=Petrov&phone=%2B79990000000&email=a%40b.ru',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      {
        name: 'register as text',
        method: 'POST',
        url: '/v2/wallet/auth/register',
        body: JSON.stringify(person()),
        headers: { 'content-type': 'text/plain' },
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      { name: 'send_code without phone', method: 'POST', url: '/v2/wallet/auth/send_code', body: {} },
      {
        name: 'send_code bad phone',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
        body: { phone: '9991234567' },
        code: 'FIELD_INVALID',
      },
      {
        name: 'send_code phone as number',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
        body: { phone: 79991234567 },
        code: 'FIELD_INVALID',
      },
      {
        name: 'send_code extra field',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
        body: { phone: pendingPhone, purpose: 'login' },
        code: 'FIELD_INVALID',
      },
      {
        name: 'send_code malformed',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
        body: `{"phone":"${phone}"`,
        code: 'INVALID_JSON',
      },
      {
        name: 'send_code no body',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
      },
      {
        name: 'send_code oversized',
        method: 'POST',
        url: '/v2/wallet/auth/send_code',
        body: JSON.stringify({ phone: pendingPhone, pad: ' '.repeat(70_000) }),
        code: 'PAYLOAD_TOO_LARGE',
      },
    ];
    for (const url of codeCalls) {
      for (const target of [phone, pendingPhone]) {
        for (const confirm_code of ['12a4', '12345', '123', '', ' 1234', '１２３４', '12.4']) {
          list.push({
            name: `${url} code ${confirm_code}`,
            method: 'POST',
            url,
            body: { phone: target, confirm_code },
          });
        }
        list.push({
          name: `${url} code as number`,
          method: 'POST',
          url,
          body: { phone: target, confirm_code: 1234 },
          code: 'FIELD_INVALID',
        });
        list.push({
          name: `${url} no code`,
          method: 'POST',
          url,
          body: { phone: target },
          code: 'FIELD_REQUIRED',
        });
        list.push({
          name: `${url} extra`,
          method: 'POST',
          url,
          body: { phone: target, confirm_code: '1234', remember: true },
          code: 'FIELD_INVALID',
        });
      }
      list.push({
        name: `${url} bad phone`,
        method: 'POST',
        url,
        body: { phone: '+7-999', confirm_code: '1234' },
      });
      list.push({ name: `${url} malformed`, method: 'POST', url, body: '{phone:1}', code: 'INVALID_JSON' });
      list.push({
        name: `${url} oversized`,
        method: 'POST',
        url,
        body: JSON.stringify({ phone, confirm_code: '1'.repeat(70_000) }),
        code: 'PAYLOAD_TOO_LARGE',
      });
    }
    const pinCalls: Array<[string, (pin: unknown) => unknown]> = [
      ['/v2/wallet/auth/register/set/pin', (pin) => ({ pin_code: pin })],
      ['/v2/wallet/auth/pin/verify', (pin) => ({ pin })],
      ['/v2/wallet/auth/pin/change', (pin) => ({ old_pin: pin, new_pin: '5678' })],
      ['/v2/wallet/auth/pin/change', (pin) => ({ old_pin: '1234', new_pin: pin })],
    ];
    for (const [url, body] of pinCalls) {
      for (const pin of ['12a4', '123', '12345', '', 1234, null, '١٢٣٤']) {
        list.push({ name: `${url} pin ${String(pin)}`, method: 'POST', url, body: body(pin), auth: true });
      }
      list.push({
        name: `${url} extra`,
        method: 'POST',
        url,
        body: { ...(body('1234') as object), x: 1 },
        auth: true,
        code: 'FIELD_INVALID',
      });
      list.push({ name: `${url} empty`, method: 'POST', url, body: {}, auth: true, code: 'FIELD_REQUIRED' });
      list.push({
        name: `${url} malformed`,
        method: 'POST',
        url,
        body: '{"pin"',
        auth: true,
        code: 'INVALID_JSON',
      });
      list.push({
        name: `${url} oversized`,
        method: 'POST',
        url,
        body: JSON.stringify({ pin: '1'.repeat(70_000) }),
        auth: true,
        code: 'PAYLOAD_TOO_LARGE',
      });
      // Without a token: refused before anything else.
      list.push({ name: `${url} no token`, method: 'POST', url, body: body('1234'), code: 'INVALID_TOKEN' });
    }
    for (const id of ['abc', '1', `${'z'.repeat(36)}`, 'x'.repeat(300), '%zz', `${'-'.repeat(36)}`]) {
      list.push({
        name: `end session ${id.slice(0, 10)}`,
        method: 'DELETE',
        url: `/v2/wallet/auth/sessions/${id}`,
        auth: true,
      });
    }
    for (const [method, url] of [
      ['GET', '/v2/wallet/auth/info'],
      ['POST', '/v2/wallet/auth/logout'],
      ['GET', '/v2/wallet/auth/sessions'],
      ['DELETE', '/v2/wallet/auth/sessions'],
    ] as const) {
      list.push({ name: `${url} no token`, method, url, code: 'INVALID_TOKEN' });
      list.push({
        name: `${url} garbage token`,
        method,
        url,
        headers: { authorization: 'Token not-a-real-token-but-long-enough' },
        code: 'INVALID_TOKEN',
      });
      list.push({
        name: `${url} bearer scheme`,
        method,
        url,
        headers: { authorization: 'Bearer abc' },
        code: 'INVALID_TOKEN',
      });
    }
    list.push({
      name: 'sandbox outbox bad phone',
      method: 'GET',
      url: '/sandbox/sms?phone=%2B7abc',
      code: 'FIELD_INVALID',
    });
    list.push({ name: 'sandbox outbox unknown parameter', method: 'GET', url: '/sandbox/sms?all=1' });
    return list;
  };

  it('answers 4xx in the error shape with a Russian message for every bad request', async () => {
    const before = await authRowCounts(server);
    const failures: string[] = [];
    for (const bad of cases()) {
      const { status, body } = await server.call(bad.method, bad.url, {
        body: bad.body,
        token: bad.auth ? token : undefined,
        headers: bad.headers,
      });
      const problem =
        status < 400 || status > 499
          ? `status ${status}`
          : !isErrorShape(body)
            ? `shape ${JSON.stringify(body)}`
            : !CYRILLIC.test(body.message)
              ? `message ${body.message}`
              : bad.code && body.code !== bad.code
                ? `code ${body.code}, expected ${bad.code}`
                : null;
      if (problem) failures.push(`${bad.name}: ${problem}`);
    }
    expect(failures).toEqual([]);
    expect(await authRowCounts(server)).toEqual(before);
    // The user's session still works and the waiting registration can still be confirmed.
    expect((await server.call('GET', '/v2/wallet/auth/info', { token })).status).toBe(200);
    const confirmed = await server.call('POST', '/v2/wallet/auth/register/phone/confirm', {
      body: { phone: pendingPhone, confirm_code: await lastCode(server, pendingPhone) },
    });
    expect(confirmed.status).toBe(200);
  });

  it('names the field in the message', async () => {
    const missing = await server.call('POST', '/v2/wallet/auth/register', {
      body: { ...person(), email: undefined },
    });
    expect(missing.body).toEqual({
      status: 'error',
      code: 'FIELD_REQUIRED',
      message: 'Заполните поле «E-mail»',
    });
    const phoneBad = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: '123', confirm_code: '1234' },
    });
    expect(phoneBad.body).toEqual({
      status: 'error',
      code: 'FIELD_INVALID',
      message: 'Проверьте поле «Телефон»',
    });
    const codeBad = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone, confirm_code: '12a4' },
    });
    expect(codeBad.body).toEqual({ status: 'error', code: 'FIELD_INVALID', message: 'Проверьте поле «Код»' });
  });
});
