/**
 * Access control: every call that names an object (account, top-up order, payout, session,
 * notification, transaction and statistics filters, verification) answers another user's object
 * exactly as an object that does not exist: the same status, code and message, so ids cannot be
 * probed. And naming it changes nothing of the other user's (their session lives on, their
 * notification stays unread, their verification is not touched).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { started } from './topup-helpers.ts';
import { key, type Person, person, withdraw } from './withdrawal-helpers.ts';

interface Answer {
  status: number;
  body: { status?: string; code?: string; message?: string };
}

describe(`access control: another user's object is as absent as a missing one (${databaseLabel})`, () => {
  let server: TestServer;
  let alice: Person;
  let bob: Person;
  const bobs = {
    account: '',
    usdAccount: '',
    order: '',
    payout: '',
    transfer: '',
    session: '',
    notification: '',
  };

  beforeAll(async () => {
    server = await startTestServer();
    alice = await person(server, { rub: 100_000n });
    bob = await person(server, { rub: 100_000n });
    const wallet = await server.call('GET', '/v2/wallet', { token: bob.token });
    bobs.account = wallet.body.results[0].accounts[0].id;
    const usd = await server.call('POST', '/v2/wallet/account', {
      token: bob.token,
      body: { currency_code: 'USD' },
    });
    expect(usd.status, JSON.stringify(usd.body)).toBe(201);
    bobs.usdAccount = usd.body.id;
    bobs.order = (await started(server, bob.token, '10.00')).order;
    const payout = await withdraw(server, bob, { amount: '5.00' }, key());
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    bobs.payout = payout.body.receipt.id;
    const sent = await server.call('POST', '/v2/wallet/transfer', {
      token: bob.token,
      body: { phone: alice.phone, amount: '1.00', currency_code: 'RUB', pin: '1234' },
      headers: { 'idempotency-key': key() },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    bobs.transfer = sent.body.receipt.id;
    const sessions = await server.call('GET', '/v2/wallet/auth/sessions', { token: bob.token });
    bobs.session = sessions.body.results[0].id;
    const notes = await server.call('GET', '/v2/wallet/user/notification', { token: bob.token });
    expect(notes.body.results.length).toBeGreaterThan(0);
    bobs.notification = notes.body.results[0].id;
  }, 120_000);
  afterAll(() => server?.close());

  // Headers are compared too, less the request's own id and the clock (Date ticks between two asks).
  const as = async (who: Person, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const answer = await server.call(method, url, { token: who.token, body });
    const { 'x-request-id': _id, date: _date, ...headers } = answer.headers;
    return { ...answer, headers } as Answer;
  };

  /** Asks as Alice for Bob's object and for an id nobody has: both answers must be the same refusal. */
  async function sameAsMissing(ask: (id: string) => Promise<Answer>, others: string, expectedCode: string) {
    const foreign = await ask(others);
    const missing = await ask(randomUUID());
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: missing.status,
      body: missing.body,
    });
    expect(foreign.body.code).toBe(expectedCode);
    return foreign;
  }

  it('an account by id', async () => {
    await sameAsMissing(
      (id) => as(alice, 'GET', `/v2/wallet/account/${id}`),
      bobs.account,
      'ACCOUNT_NOT_FOUND',
    );
    await sameAsMissing(
      (id) => as(alice, 'GET', `/v2/wallet/account/${id}`),
      bobs.usdAccount,
      'ACCOUNT_NOT_FOUND',
    );
    // The owner does see it: the id is real.
    expect((await as(bob, 'GET', `/v2/wallet/account/${bobs.account}`)).status).toBe(200);
  });

  it('transactions filtered by an account', async () => {
    const foreign = await as(alice, 'GET', `/v2/wallet/transaction?account=${bobs.account}`);
    const missing = await as(alice, 'GET', `/v2/wallet/transaction?account=${randomUUID()}`);
    expect(foreign).toEqual(missing);
    // Whatever the answer's form, none of Bob's transactions is in it.
    expect(JSON.stringify(foreign.body)).not.toContain(bobs.account);
    const own = await as(bob, 'GET', `/v2/wallet/transaction?account=${bobs.account}`);
    expect(own.status).toBe(200);
    expect((own.body as { results?: unknown[] }).results?.length ?? 0).toBeGreaterThan(0);
  });

  it('statistics filtered by an account', async () => {
    const foreign = await as(alice, 'GET', `/v2/wallet/stat?account=${bobs.account}`);
    const missing = await as(alice, 'GET', `/v2/wallet/stat?account=${randomUUID()}`);
    expect(foreign).toEqual(missing);
  });

  it('a top-up order', async () => {
    await sameAsMissing(
      (id) => as(alice, 'GET', `/v2/wallet/top-up/status?order=${id}`),
      bobs.order,
      'ORDER_NOT_FOUND',
    );
    expect((await as(bob, 'GET', `/v2/wallet/top-up/status?order=${bobs.order}`)).status).toBe(200);
  });

  it('a payout (withdrawal receipt), and a transfer id asked for as a receipt', async () => {
    await sameAsMissing(
      (id) => as(alice, 'GET', `/v2/wallet/withdrawal/${id}`),
      bobs.payout,
      'OPERATION_NOT_FOUND',
    );
    await sameAsMissing(
      (id) => as(alice, 'GET', `/v2/wallet/withdrawal/${id}`),
      bobs.transfer,
      'OPERATION_NOT_FOUND',
    );
    expect((await as(bob, 'GET', `/v2/wallet/withdrawal/${bobs.payout}`)).status).toBe(200);
  });

  it("a session: ending another user's session is refused as a missing one and the session lives on", async () => {
    await sameAsMissing(
      (id) => as(alice, 'DELETE', `/v2/wallet/auth/sessions/${id}`),
      bobs.session,
      'SESSION_NOT_FOUND',
    );
    expect((await as(bob, 'GET', '/v2/wallet/auth/info')).status).toBe(200);
  });

  it("a notification: marking another user's read is refused as a missing one and it stays unread", async () => {
    await sameAsMissing(
      (id) => as(alice, 'POST', '/v2/wallet/user/notification/read', { ids: [id] }),
      bobs.notification,
      'NOTIFICATION_NOT_FOUND',
    );
    const notes = await as(bob, 'GET', '/v2/wallet/user/notification');
    const note = (notes.body as unknown as { results: Array<{ id: string; is_read: boolean }> }).results.find(
      (n) => n.id === bobs.notification,
    );
    expect(note?.is_read).toBe(false);
  });

  it("a verification: one user's active verification is never another's", async () => {
    const started = await as(bob, 'POST', '/v2/wallet/identification-level/upgrade');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const aliceStatus = await as(alice, 'POST', '/v2/wallet/identification-level/status');
    expect(aliceStatus.status).toBe(200);
    const bobVerification = (started.body as unknown as { active_identification: { id: string } })
      .active_identification.id;
    expect(JSON.stringify(aliceStatus.body)).not.toContain(bobVerification);
    const aliceInfo = await as(alice, 'GET', '/v2/wallet/auth/info');
    expect(JSON.stringify(aliceInfo.body)).not.toContain(bobVerification);
  });

  it('nothing of the refused calls moved money', async () => {
    await expectLedgerSound(server);
  });
});
