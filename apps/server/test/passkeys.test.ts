/**
 * Passkeys through the API with a software authenticator: added with a fresh challenge, listed,
 * used to confirm the signed-in person (as the PIN does at the app lock), and removed. A challenge
 * works once and only for its own user and ceremony; another person's passkey, a wrong origin, a
 * signature without user verification, or a replayed assertion is PASSKEY_INVALID and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, registeredUser, wrongCode } from './auth-helpers.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';

const BASE = '/v2/wallet/auth/passkeys';
const PIN = '1234';

describe(`passkeys (${databaseLabel})`, () => {
  let server: TestServer;
  let origin: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'http://localhost:8302' } });
    origin = 'http://localhost:8302';
  });
  afterAll(() => server.close());

  async function addPasskey(
    token: string,
    authenticator = new SoftAuthenticator(),
    name: string | null = 'Телефон',
  ) {
    const options = await server.call('POST', `${BASE}/register/options`, { token, body: { pin: PIN } });
    expect(options.status).toBe(200);
    expect(options.body.options.rp).toEqual({ id: 'localhost', name: 'E-Wallet' });
    const added = await server.call('POST', `${BASE}/register`, {
      token,
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.create(options.body.options, origin),
        ...(name === null ? {} : { name }),
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return authenticator;
  }

  async function confirmOptions(token: string) {
    const options = await server.call('POST', `${BASE}/confirm/options`, { token });
    expect(options.status).toBe(200);
    return options.body as { challenge_id: string; options: { challenge: string; rpId: string } };
  }

  it('adds a passkey, lists it, confirms with it, and removes it', async () => {
    const { token } = await registeredUser(server, { pin: PIN });
    expect((await server.call('GET', BASE, { token })).body).toEqual({ results: [], next: null });
    // Nothing to confirm with yet.
    const none = await server.call('POST', `${BASE}/confirm/options`, { token });
    expect(none.body).toMatchObject({ status: 'error', code: 'PASSKEY_NOT_FOUND' });

    const authenticator = await addPasskey(token);
    const list = await server.call('GET', BASE, { token });
    expect(list.body.results).toEqual([
      {
        id: expect.any(String),
        name: 'Телефон',
        created_at: expect.any(String),
        last_used_at: null,
        suspended_at: null,
        device: expect.any(String),
      },
    ]);
    const { rows } = await server.ctx.db.query<{ credential_id: string }>(
      'SELECT credential_id FROM passkeys',
    );
    expect(rows.map((r) => r.credential_id)).toContain(authenticator.id);

    const options = await confirmOptions(token);
    const confirmed = await server.call('POST', `${BASE}/confirm`, {
      token,
      body: { challenge_id: options.challenge_id, response: authenticator.get(options.options, origin) },
    });
    expect(confirmed.body).toEqual({ status: 'success', message: 'Ключ доступа подтверждён' });
    expect((await server.call('GET', BASE, { token })).body.results[0].last_used_at).not.toBeNull();

    const id = list.body.results[0].id;
    expect((await server.call('DELETE', `${BASE}/${id}`, { token })).status).toBe(200);
    expect((await server.call('DELETE', `${BASE}/${id}`, { token })).body.code).toBe('PASSKEY_NOT_FOUND');
  });

  it("names an unnamed passkey in the reader's language, whatever language it was added in", async () => {
    const { token } = await registeredUser(server, { pin: PIN });
    await addPasskey(token, new SoftAuthenticator(), null);
    const read = async (language: string) =>
      (await server.call('GET', BASE, { token, headers: { 'Accept-Language': language } })).body.results.map(
        (key: { name: string }) => key.name,
      );
    expect(await read('ru')).toEqual(['Ключ доступа']);
    expect(await read('en')).toEqual(['Passkey']);
    // A key stored earlier with the Russian default name reads in English too.
    await server.ctx.db.query(`UPDATE passkeys SET name = 'Ключ доступа' WHERE name = ''`);
    expect(await read('en')).toEqual(['Passkey']);
  });

  it('refuses replays, other challenges, other people, wrong origins and missing user verification', async () => {
    const alice = await registeredUser(server, { pin: PIN });
    const bob = await registeredUser(server, { pin: PIN });
    const authenticator = await addPasskey(alice.token);
    await addPasskey(bob.token);
    const invalid = async (token: string, body: unknown) => {
      const answer = await server.call('POST', `${BASE}/confirm`, { token, body });
      expect(answer.status).toBe(400);
      expect(isErrorShape(answer.body)).toBe(true);
      expect(answer.body.code).toBe('PASSKEY_INVALID');
    };

    // A challenge works once.
    const first = await confirmOptions(alice.token);
    const response = authenticator.get(first.options, origin);
    expect(
      (
        await server.call('POST', `${BASE}/confirm`, {
          token: alice.token,
          body: { challenge_id: first.challenge_id, response },
        })
      ).status,
    ).toBe(200);
    await invalid(alice.token, { challenge_id: first.challenge_id, response });

    // Alice's passkey does not confirm Bob, even with Bob's own challenge.
    const bobs = await confirmOptions(bob.token);
    await invalid(bob.token, {
      challenge_id: bobs.challenge_id,
      response: authenticator.get(bobs.options, origin),
    });
    // Bob cannot use Alice's challenge.
    const alices = await confirmOptions(alice.token);
    await invalid(bob.token, {
      challenge_id: alices.challenge_id,
      response: authenticator.get(alices.options, origin),
    });

    // Another site's origin, and a device that did not verify its user.
    const other = await confirmOptions(alice.token);
    await invalid(alice.token, {
      challenge_id: other.challenge_id,
      response: authenticator.get(other.options, 'https://evil.example'),
    });
    const unverified = await confirmOptions(alice.token);
    await invalid(alice.token, {
      challenge_id: unverified.challenge_id,
      response: authenticator.get(unverified.options, origin, { userVerified: false }),
    });

    // A challenge older than 5 minutes is gone.
    const late = await confirmOptions(alice.token);
    server.clock.advance(5 * 60_000 + 1);
    await invalid(alice.token, {
      challenge_id: late.challenge_id,
      response: authenticator.get(late.options, origin),
    });

    // The same credential cannot be added twice (to anyone).
    const again = await server.call('POST', `${BASE}/register/options`, {
      token: bob.token,
      body: { pin: PIN },
    });
    const twice = await server.call('POST', `${BASE}/register`, {
      token: bob.token,
      body: {
        challenge_id: again.body.challenge_id,
        response: authenticator.create(again.body.options, origin),
      },
    });
    expect(twice.body.code).toBe('PASSKEY_INVALID');
  });

  it("another user's passkey id answers exactly as a missing one", async () => {
    const alice = await registeredUser(server, { pin: PIN });
    const bob = await registeredUser(server, { pin: PIN });
    await addPasskey(alice.token);
    const id = (await server.call('GET', BASE, { token: alice.token })).body.results[0].id;
    const foreign = await server.call('DELETE', `${BASE}/${id}`, { token: bob.token });
    const missing = await server.call('DELETE', `${BASE}/5f0c6f39-8d4e-4c43-9a3e-6f1f9d0e2a11`, {
      token: bob.token,
    });
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
    expect((await server.call('GET', BASE, { token: alice.token })).body.results).toHaveLength(1);
  });

  it('adds a passkey only after the PIN or a fresh SMS code, and tells the owner at once by SMS and in the bell', async () => {
    const { token, phone } = await registeredUser(server, { pin: PIN });
    const options = (body: Record<string, unknown> | undefined) =>
      server.call('POST', `${BASE}/register/options`, { token, ...(body ? { body } : {}) });
    // The session alone: nothing to register with.
    for (const body of [undefined, {}, { pin: PIN, confirm_code: '0000' }]) {
      const refused = await options(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(isErrorShape(refused.body)).toBe(true);
    }
    const wrongPin = await options({ pin: '9999' });
    expect(wrongPin.body.code).toBe('PIN_INVALID');
    // A fresh SMS code to the person's own phone proves it as well; a wrong one is counted and refused.
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone } });
    const code = await lastCode(server, phone);
    expect((await options({ confirm_code: wrongCode(code) })).body.code).toBe('CODE_INVALID');
    const byCode = await options({ confirm_code: code });
    expect(byCode.status).toBe(200);
    // Used up: the same code proves nothing twice.
    expect((await options({ confirm_code: code })).status).toBe(400);
    const { rows: none } = await server.ctx.db.query('SELECT 1 FROM webauthn_challenges WHERE proof IS NULL');
    expect(none).toHaveLength(0);

    const outbox = async () =>
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results as {
        text: string;
        code: string;
      }[];
    const before = (await outbox()).length;
    const added = await server.call('POST', `${BASE}/register`, {
      token,
      body: {
        challenge_id: byCode.body.challenge_id,
        response: new SoftAuthenticator().create(byCode.body.options, origin),
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const texts = await outbox();
    expect(texts.length).toBe(before + 1);
    expect(texts[0]).toMatchObject({ code: '' });
    expect(texts[0]!.text).toContain('новый ключ доступа');
    const bell = await server.call('GET', '/v2/wallet/user/notification', { token });
    expect(bell.body.results.find((n: { kind: string }) => n.kind === 'security')).toMatchObject({
      kind: 'security',
      message: expect.stringContaining('ключ доступа'),
    });
    const { rows } = await server.ctx.db.query<{ kind: string; proof: string; changed: Date | null }>(
      `SELECT c.kind, c.proof, u.security_changed_at AS changed FROM security_changes c
       JOIN users u ON u.id = c.user_id WHERE u.phone = $1`,
      [phone],
    );
    expect(rows).toEqual([{ kind: 'passkey_added', proof: 'sms_code', changed: server.clock.now() }]);

    // Removing one is told and kept too.
    const id = (await server.call('GET', BASE, { token })).body.results[0].id;
    expect((await server.call('DELETE', `${BASE}/${id}`, { token })).status).toBe(200);
    expect((await outbox())[0]!.text).toContain('удалён');
  });

  it('a new PIN is told out of band and kept as a security change', async () => {
    const { token, phone } = await registeredUser(server, { pin: PIN });
    const changed = await server.call('POST', '/v2/wallet/auth/pin/change', {
      token,
      body: { old_pin: PIN, new_pin: '4321' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const texts = (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results;
    expect(texts[0]).toMatchObject({ code: '', text: expect.stringContaining('PIN-код кошелька изменён') });
    const { rows } = await server.ctx.db.query(
      'SELECT c.kind, c.proof FROM security_changes c JOIN users u ON u.id = c.user_id WHERE u.phone = $1',
      [phone],
    );
    expect(rows).toEqual([{ kind: 'pin_changed', proof: 'pin' }]);
  });
});
