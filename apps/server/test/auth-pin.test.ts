import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPin } from '../src/modules/auth/pin.ts';
import { registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer, usePostgres } from './helpers.ts';

const VERIFY = '/v2/wallet/auth/pin/verify';
const CHANGE = '/v2/wallet/auth/pin/change';
const INFO = '/v2/wallet/auth/info';

async function userIdOf(server: TestServer, phone: string): Promise<string> {
  const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
    phone,
  ]);
  return rows[0]!.id;
}

async function pinState(server: TestServer, userId: string) {
  const { rows } = await server.ctx.db.query<{ pin_failures: number; pin_locked_until: Date | null }>(
    'SELECT pin_failures, pin_locked_until FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]!;
}

/** The error code a checkPin call throws, or 'ok'. */
async function checkCode(server: TestServer, userId: string, pin: string): Promise<string> {
  try {
    await checkPin(server.ctx, userId, pin);
    return 'ok';
  } catch (error) {
    const e = error as { code: string; params: Record<string, unknown> };
    const param = e.params.left ?? e.params.minutes;
    return param === undefined ? e.code : `${e.code}:${param}`;
  }
}

describe(`PIN (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { SMS_PER_ADDRESS_PER_HOUR: '1000' } });
  });
  afterAll(() => server.close());

  it('verifies the PIN, and answers PIN_NOT_SET before one is set', async () => {
    const { token } = await registeredUser(server);
    const unset = await server.call('POST', VERIFY, { body: { pin: '1234' }, token });
    expect(unset.status).toBe(409);
    expect(unset.body).toEqual({
      status: 'error',
      code: 'PIN_NOT_SET',
      message: 'Сначала установите PIN-код',
    });
    await server.call('POST', '/v2/wallet/auth/register/set/pin', { body: { pin_code: '1234' }, token });
    const ok = await server.call('POST', VERIFY, { body: { pin: '1234' }, token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'success', message: 'PIN-код верный' });
    const wrong = await server.call('POST', VERIFY, { body: { pin: '4321' }, token });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      status: 'error',
      code: 'PIN_INVALID',
      message: 'Неверный PIN-код. Осталось попыток: 4',
    });
  });

  it('locks after 5 wrong PINs for 15 minutes, even for the right PIN; a right PIN then resets the count', async () => {
    const { phone, token } = await registeredUser(server, { pin: '1357' });
    const userId = await userIdOf(server, phone);
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(await checkCode(server, userId, '0000'));
    expect(answers).toEqual([
      'PIN_INVALID:4',
      'PIN_INVALID:3',
      'PIN_INVALID:2',
      'PIN_INVALID:1',
      'PIN_LOCKED:15',
    ]);

    const locked = await server.call('POST', VERIFY, { body: { pin: '1357' }, token });
    expect(locked.status).toBe(423);
    expect(locked.body).toEqual({
      status: 'error',
      code: 'PIN_LOCKED',
      message: 'Операции заблокированы после неверных PIN-кодов. Попробуйте через 15 мин',
    });
    // While locked, nothing is compared or counted.
    expect(await checkCode(server, userId, '0000')).toBe('PIN_LOCKED:15');
    expect((await pinState(server, userId)).pin_failures).toBe(5);
    server.clock.advance(14 * 60_000 + 30_000);
    expect(await checkCode(server, userId, '1357')).toBe('PIN_LOCKED:1');
    server.clock.advance(30_000);
    expect(await checkCode(server, userId, '1357')).toBe('ok');
    expect(await pinState(server, userId)).toEqual({ pin_failures: 0, pin_locked_until: null });
    // A fresh count after the right PIN.
    expect(await checkCode(server, userId, '0000')).toBe('PIN_INVALID:4');
    expect((await server.call('GET', INFO, { token })).status).toBe(200);
  });

  it('revokes every session of the user at the 10th wrong PIN in a row', async () => {
    const { phone, token } = await registeredUser(server, { pin: '2468' });
    const other = await registeredUser(server, { pin: '2468' });
    const userId = await userIdOf(server, phone);
    const { rows: before } = await server.ctx.db.query(
      'SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
    expect(before).toHaveLength(1);

    for (let i = 0; i < 5; i++) await checkCode(server, userId, '9999');
    server.clock.advance(15 * 60_000);
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await checkCode(server, userId, '9999'));
    // The count runs on across the lock: 6th to 9th wrong PIN.
    expect(answers).toEqual(['PIN_INVALID:4', 'PIN_INVALID:3', 'PIN_INVALID:2', 'PIN_INVALID:1']);
    expect((await server.call('GET', INFO, { token })).status).toBe(200);

    const tenth = await server.call('POST', VERIFY, { body: { pin: '9999' }, token });
    expect(tenth.status).toBe(401);
    expect(tenth.body.code).toBe('INVALID_TOKEN');
    expect((await server.call('GET', INFO, { token })).body.code).toBe('INVALID_TOKEN');
    const { rows: after } = await server.ctx.db.query(
      'SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
    expect(after).toHaveLength(0);
    // Money stays locked too, and another user is untouched.
    expect(await checkCode(server, userId, '2468')).toBe('PIN_LOCKED:15');
    expect((await server.call('GET', INFO, { token: other.token })).status).toBe(200);
  });

  it('changes the PIN with the old one; a wrong old PIN counts; the same PIN is refused', async () => {
    const { phone, token } = await registeredUser(server, { pin: '1111' });
    const userId = await userIdOf(server, phone);
    const same = await server.call('POST', CHANGE, { body: { old_pin: '1111', new_pin: '1111' }, token });
    expect(same.body.code).toBe('PIN_SAME');
    const wrong = await server.call('POST', CHANGE, { body: { old_pin: '2222', new_pin: '3333' }, token });
    expect(wrong.body.code).toBe('PIN_INVALID');
    expect((await pinState(server, userId)).pin_failures).toBe(1);
    const changed = await server.call('POST', CHANGE, { body: { old_pin: '1111', new_pin: '3333' }, token });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ status: 'success', message: 'PIN-код изменён' });
    expect(await checkCode(server, userId, '1111')).toBe('PIN_INVALID:4');
    expect(await checkCode(server, userId, '3333')).toBe('ok');
    const unset = await registeredUser(server);
    const notSet = await server.call('POST', CHANGE, {
      body: { old_pin: '1111', new_pin: '3333' },
      token: unset.token,
    });
    expect(notSet.body.code).toBe('PIN_NOT_SET');
  });

  it.runIf(usePostgres)('counts concurrent wrong PINs exactly (row lock across connections)', async () => {
    const { phone } = await registeredUser(server, { pin: '8642' });
    const userId = await userIdOf(server, phone);
    const answers = await Promise.all(Array.from({ length: 8 }, () => checkCode(server, userId, '0001')));
    // Exactly four answers say how many are left (each number once), the fifth locks, the rest are locked.
    expect(answers.filter((a) => a.startsWith('PIN_INVALID')).sort()).toEqual([
      'PIN_INVALID:1',
      'PIN_INVALID:2',
      'PIN_INVALID:3',
      'PIN_INVALID:4',
    ]);
    expect(answers.filter((a) => a === 'PIN_LOCKED:15')).toHaveLength(4);
    expect((await pinState(server, userId)).pin_failures).toBe(5);

    // After the lock: five more at once reach the 10th wrong PIN exactly once, which revokes the sessions.
    server.clock.advance(15 * 60_000);
    const more = await Promise.all(Array.from({ length: 5 }, () => checkCode(server, userId, '0001')));
    expect(more.sort()).toEqual([
      'INVALID_TOKEN',
      'PIN_INVALID:1',
      'PIN_INVALID:2',
      'PIN_INVALID:3',
      'PIN_INVALID:4',
    ]);
    expect((await pinState(server, userId)).pin_failures).toBe(10);
  });
});
