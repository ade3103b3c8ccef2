/**
 * Recovery removes what a thief added (issue 53, finding 5), as the outside test did it: a thief with a
 * session and the PIN added a passkey; the owner froze and unfroze with an SMS code and the PIN; the
 * thief's passkey still signed in and confirmed a 9,000 ₽ transfer without the PIN. Now a freeze
 * suspends every passkey and push subscription: a suspended passkey neither signs in nor confirms money
 * until the owner keeps it (with the PIN), and the list shows each with its dates and device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, ownCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const ORIGIN = 'http://localhost:8304';
const PASSKEYS = '/v2/wallet/auth/passkeys';
const THIEF_DEVICE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';

describe(`recovery suspends what a thief added (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-06-01T09:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function addPasskey(token: string, userAgent: string): Promise<SoftAuthenticator> {
    const authenticator = new SoftAuthenticator();
    const options = await server.call('POST', `${PASSKEYS}/register/options`, { token, body: { pin: PIN } });
    const added = await server.call('POST', `${PASSKEYS}/register`, {
      token,
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.create(options.body.options, ORIGIN),
      },
      headers: { 'user-agent': userAgent },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return authenticator;
  }
  async function signInBy(authenticator: SoftAuthenticator) {
    const options = await server.call('POST', `${PASSKEYS}/login/options`);
    return server.call('POST', `${PASSKEYS}/login`, {
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.get(options.body.options, ORIGIN),
      },
    });
  }
  async function transferBy(who: Person, to: Person, authenticator: SoftAuthenticator) {
    const options = await server.call('POST', `${PASSKEYS}/confirm/options`, { token: who.token });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    return server.call('POST', '/v2/wallet/transfer', {
      token: who.token,
      body: {
        phone: to.phone,
        amount: '9000.00',
        currency_code: 'RUB',
        passkey: {
          challenge_id: options.body.challenge_id,
          response: authenticator.get(options.body.options, ORIGIN),
        },
      },
      headers: { 'idempotency-key': key() },
    });
  }

  it("the thief's passkey neither signs in nor confirms money after the owner's freeze and unfreeze", async () => {
    const owner = await person(server, { level: 'full', rub: 3_000_000n });
    const mule = await person(server);
    const own = await addPasskey(
      owner.token,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
    );
    // The thief signs in with the owner's phone code and adds a passkey with the PIN.
    clock.advance(61_000);
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: owner.phone } });
    const thiefSession = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: owner.phone, confirm_code: await lastCode(server, owner.phone) },
      headers: { 'user-agent': THIEF_DEVICE },
    });
    const thief = await addPasskey(thiefSession.body.auth_token, THIEF_DEVICE);
    await server.ctx.db.query(
      `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_at)
       VALUES ($1, $2, 'x', 'y', $3)`,
      [`https://fcm.googleapis.com/fcm/send/${key()}`, owner.userId, clock.now()],
    );

    // The owner: 'Это не я' (a freeze), then the unfreeze with a fresh code and the PIN.
    expect((await server.call('POST', '/v2/wallet/freeze', { token: owner.token, body: {} })).status).toBe(
      200,
    );
    const lifted = await server.call('POST', '/v2/wallet/unfreeze', {
      token: owner.token,
      body: { confirm_code: await ownCode(server, owner, 'unfreeze'), pin: PIN },
    });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);

    // The thief's passkey signs nobody in.
    const signIn = await signInBy(thief);
    expect([signIn.status, signIn.body.code]).toEqual([400, 'PASSKEY_INVALID']);
    // No passkey confirms money until the owner keeps theirs.
    const noOptions = await server.call('POST', `${PASSKEYS}/confirm/options`, { token: owner.token });
    expect(noOptions.body.code).toBe('PASSKEY_NOT_FOUND');

    // The owner sees both, suspended, with dates and devices.
    const listed = await server.call('GET', PASSKEYS, { token: owner.token });
    expect(listed.body.results).toHaveLength(2);
    for (const row of listed.body.results) expect(row.suspended_at).not.toBeNull();
    const [ownRow, thiefRow] = listed.body.results;
    expect(ownRow.suspended_at).not.toBeNull();
    expect(thiefRow).toMatchObject({ device: 'Chrome, Windows' });
    expect(typeof thiefRow.created_at).toBe('string');

    // Keeping one needs the PIN or a code, not the session alone.
    const bare = await server.call('POST', `${PASSKEYS}/${ownRow.id}/keep`, { token: owner.token, body: {} });
    expect(bare.status).toBe(400);
    const wrongPin = await server.call('POST', `${PASSKEYS}/${ownRow.id}/keep`, {
      token: owner.token,
      body: { pin: '9999' },
    });
    expect(wrongPin.body.code).toBe('PIN_INVALID');
    const kept = await server.call('POST', `${PASSKEYS}/${ownRow.id}/keep`, {
      token: owner.token,
      body: { pin: PIN },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);

    // The thief's answer still confirms nothing; the owner's own passkey works again.
    const stolen = await transferBy(owner, mule, thief);
    expect([stolen.status, stolen.body.code]).toEqual([400, 'PASSKEY_INVALID']);
    expect(await balance(server, mule)).toBe('0.00');
    expect((await transferBy(owner, mule, own)).status).toBe(200);
    expect(await balance(server, mule)).toBe('9000.00');
    expect((await signInBy(own)).status).toBe(200);

    // Removing the thief's passkey; the push address stays suspended until pushes are switched on again.
    expect((await server.call('DELETE', `${PASSKEYS}/${thiefRow.id}`, { token: owner.token })).status).toBe(
      200,
    );
    const settings = await server.call('GET', '/v2/wallet/notification/settings', { token: owner.token });
    expect(settings.body.push_subscribed).toBe(false);
    const { rows } = await server.ctx.db.query(
      'SELECT suspended_at FROM push_subscriptions WHERE user_id = $1',
      [owner.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toEqual({ suspended_at: null });
  });
});
