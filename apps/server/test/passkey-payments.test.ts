/**
 * Money operations confirmed with a passkey instead of the PIN
 * (docs/decisions/money-calls.md#money-confirmed-with-the-pin-or-a-passkey): a transfer, a withdrawal, a QR
 * payment and a request's payment each take `passkey` {challenge_id, response} in place of `pin`. The
 * challenge is used once and only by its person; a PIN lock still stops money; a repeat with the same
 * Idempotency-Key and a fresh passkey answer gets the first answer; neither or both confirmations are refused
 * before anything moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { SoftAuthenticator } from './passkey-authenticator.ts';
import { balance, key, type Person, PIN, person, withdraw } from './withdrawal-helpers.ts';

const ORIGIN = 'http://localhost:8303';
const PASSKEYS = '/v2/wallet/auth/passkeys';

describe(`money confirmed with a passkey (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(async () => {
    await expectLedgerSound(server);
    await server.close();
  });

  async function withPasskey(who: Person): Promise<SoftAuthenticator> {
    const authenticator = new SoftAuthenticator();
    const options = await server.call('POST', `${PASSKEYS}/register/options`, {
      token: who.token,
      body: { pin: PIN },
    });
    const added = await server.call('POST', `${PASSKEYS}/register`, {
      token: who.token,
      body: {
        challenge_id: options.body.challenge_id,
        response: authenticator.create(options.body.options, ORIGIN),
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return authenticator;
  }

  /** A fresh passkey answer of `who` (their own challenge), signed by `authenticator`. */
  async function passkey(who: Person, authenticator: SoftAuthenticator) {
    const options = await server.call('POST', `${PASSKEYS}/confirm/options`, { token: who.token });
    expect(options.status).toBe(200);
    return {
      challenge_id: options.body.challenge_id as string,
      response: authenticator.get(options.body.options, ORIGIN),
    };
  }

  function transfer(who: Person, body: Record<string, unknown>, idempotencyKey = key()) {
    return server.call('POST', '/v2/wallet/transfer', {
      token: who.token,
      body: { amount: '100.00', currency_code: 'RUB', ...body },
      headers: { 'idempotency-key': idempotencyKey },
    });
  }

  it('moves money with a passkey; a repeat with a fresh answer gets the first answer; a used answer is refused', async () => {
    const alice = await person(server, { rub: 100_000n });
    const bob = await person(server);
    const authenticator = await withPasskey(alice);
    const confirmation = await passkey(alice, authenticator);
    const opKey = key();
    const sent = await transfer(alice, { phone: bob.phone, passkey: confirmation }, opKey);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.receipt).toMatchObject({ kind: 'transfer', amount: '100.00' });
    expect(await balance(server, bob)).toBe('100.00');

    // The lost answer asked again, confirmed afresh: the first answer, nothing moves twice.
    const again = await transfer(
      alice,
      { phone: bob.phone, passkey: await passkey(alice, authenticator) },
      opKey,
    );
    expect(again.body).toEqual(sent.body);
    // The same passkey answer for a new operation: its challenge is spent.
    const replay = await transfer(alice, { phone: bob.phone, passkey: confirmation });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('PASSKEY_INVALID');
    expect(await balance(server, bob)).toBe('100.00');
    expect(await balance(server, alice)).toBe('900.00');
  });

  it("refuses another person's passkey, and a passkey answering someone else's challenge", async () => {
    const alice = await person(server, { rub: 100_000n });
    const mallory = await person(server, { rub: 100_000n });
    const bob = await person(server);
    await withPasskey(alice);
    const mallorys = await withPasskey(mallory);
    // Mallory's device answers Alice's challenge: not Alice's passkey.
    const foreign = await transfer(alice, { phone: bob.phone, passkey: await passkey(alice, mallorys) });
    expect(foreign.body.code).toBe('PASSKEY_INVALID');
    // Mallory's own answer sent on Alice's session: the challenge is Mallory's.
    const stolen = await transfer(alice, { phone: bob.phone, passkey: await passkey(mallory, mallorys) });
    expect(stolen.body.code).toBe('PASSKEY_INVALID');
    expect(await balance(server, bob)).toBe('0.00');
  });

  it('a PIN lock stops money confirmed with a passkey too; wrong PINs before are cleared by it', async () => {
    const alice = await person(server, { rub: 100_000n });
    const bob = await person(server);
    const authenticator = await withPasskey(alice);
    for (let i = 0; i < 2; i++)
      expect((await transfer(alice, { phone: bob.phone, pin: '0000' })).body.code).toBe('PIN_INVALID');
    const cleared = await transfer(alice, { phone: bob.phone, passkey: await passkey(alice, authenticator) });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const { rows } = await server.ctx.db.query<{ pin_failures: number }>(
      'SELECT pin_failures FROM users WHERE id = $1',
      [alice.userId],
    );
    expect(rows[0]!.pin_failures).toBe(0);

    for (let i = 0; i < 5; i++) await transfer(alice, { phone: bob.phone, pin: '0000' });
    const locked = await transfer(alice, { phone: bob.phone, passkey: await passkey(alice, authenticator) });
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe('PIN_LOCKED');
    expect(await balance(server, bob)).toBe('100.00');
  });

  it('confirms a withdrawal and answers an unknown recipient only after the passkey', async () => {
    const alice = await person(server, { rub: 100_000n });
    const authenticator = await withPasskey(alice);
    const paid = await withdraw(
      server,
      alice,
      { pin: undefined, passkey: await passkey(alice, authenticator) } as never,
      key(),
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.receipt).toMatchObject({ kind: 'withdrawal' });

    // A bad passkey answer says nothing about the phone.
    const bad = await passkey(alice, new SoftAuthenticator());
    const unknown = await transfer(alice, { phone: '+79990001122', passkey: bad });
    expect(unknown.body.code).toBe('PASSKEY_INVALID');
    const known = await transfer(alice, {
      phone: '+79990001122',
      passkey: await passkey(alice, authenticator),
    });
    expect(known.body.code).toBe('RECIPIENT_NOT_FOUND');
  });

  it('pays a request with a passkey, once', async () => {
    const alice = await person(server, { rub: 100_000n });
    const bob = await person(server);
    const authenticator = await withPasskey(alice);
    const asked = await server.call('POST', '/v2/wallet/request', {
      token: bob.token,
      body: { amount: '150.00', currency_code: 'RUB', phone: alice.phone },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const pay = async () =>
      server.call('POST', `/v2/wallet/request/${asked.body.id}/pay`, {
        token: alice.token,
        body: { passkey: await passkey(alice, authenticator) },
        headers: { 'idempotency-key': key() },
      });
    expect((await pay()).status).toBe(200);
    expect((await pay()).body.code).toBe('REQUEST_PAID');
    expect(await balance(server, bob)).toBe('150.00');
  });

  it('confirms an exchange with a passkey (docs/decisions/exchange.md#exchange-between-ones-own-accounts)', async () => {
    const alice = await person(server, { rub: 100_000n });
    const authenticator = await withPasskey(alice);
    const quote = await server.call('POST', '/v2/wallet/exchange/quote', {
      token: alice.token,
      body: { from_currency: 'RUB', to_currency: 'USD', amount: '100' },
    });
    const opKey = key();
    const exchange = async () =>
      server.call('POST', '/v2/wallet/exchange', {
        token: alice.token,
        body: { quote_id: quote.body.quote_id, passkey: await passkey(alice, authenticator) },
        headers: { 'idempotency-key': opKey },
      });
    const done = await exchange();
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.receipt).toMatchObject({ kind: 'exchange', amount: '100.00', receive_amount: '1.23' });
    expect((await exchange()).body).toEqual(done.body);
    expect(await balance(server, alice, 'USD')).toBe('1.23');
  });

  it('wants exactly one of the PIN and a passkey', async () => {
    const alice = await person(server, { rub: 100_000n });
    const bob = await person(server);
    const authenticator = await withPasskey(alice);
    const neither = await transfer(alice, { phone: bob.phone });
    expect(neither.status).toBe(400);
    expect(isErrorShape(neither.body)).toBe(true);
    expect(neither.body.code).toBe('FIELD_REQUIRED');
    const both = await transfer(alice, {
      phone: bob.phone,
      pin: '1234',
      passkey: await passkey(alice, authenticator),
    });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('FIELD_INVALID');
    expect(await balance(server, bob)).toBe('0.00');
  });
});
