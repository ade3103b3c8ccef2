/**
 * The live wallet's stream, GET /v2/wallet/events (docs/decisions/live-wallet.md#the-live-wallet), over real
 * HTTP: a bad token is refused before any stream; a transfer reaches the receiver's stream (on PostgreSQL
 * from a second instance on the same database); Last-Event-ID resumes without loss; a page's first
 * stream catches up from when the page asked for its data; a revoked
 * session's stream hears `session` and ends.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { RunningContext } from '../src/create-context.ts';
import { pruneEvents } from '../src/modules/events/hub.ts';
import {
  databaseLabel,
  isErrorShape,
  secondContext,
  startTestServer,
  type TestServer,
  usePostgres,
} from './helpers.ts';
import { openStream } from './sse-client.ts';
import { PIN, person } from './withdrawal-helpers.ts';

describe(`the event stream (${databaseLabel})`, () => {
  let server: TestServer;
  let base: string;
  /** A second instance on the same PostgreSQL database (PostgreSQL only). */
  let other: { ctx: RunningContext; base: string; close(): Promise<void> } | null = null;

  beforeAll(async () => {
    server = await startTestServer();
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    if (usePostgres) {
      const ctx = await secondContext(server);
      const app = await buildApp(ctx, { logger: false });
      const otherBase = await app.listen({ port: 0, host: '127.0.0.1' });
      other = {
        ctx,
        base: otherBase,
        async close() {
          await app.close();
          await ctx.stop();
        },
      };
    }
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await server.close();
  });

  function transfer(from: { token: string }, to: { phone: string }, amount: string, via = base) {
    return fetch(`${via}/v2/wallet/transfer`, {
      method: 'POST',
      headers: {
        authorization: `Token ${from.token}`,
        'content-type': 'application/json',
        'idempotency-key': `test-${randomUUID()}`,
      },
      body: JSON.stringify({ phone: to.phone, amount, currency_code: 'RUB', pin: PIN }),
    });
  }

  it('refuses a bad token with 401 INVALID_TOKEN in the contract shape, before any stream', async () => {
    const missing = await fetch(`${base}/v2/wallet/events`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
    const body = await missing.json();
    expect(isErrorShape(body)).toBe(true);
    expect(body.code).toBe('INVALID_TOKEN');
    const wrong = await server.call('GET', '/v2/wallet/events', { token: 'x'.repeat(43) });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_TOKEN');
  });

  it('tells the receiver of a transfer at once: the operation, the balance and the notification', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    const listeners = async () =>
      (
        await server.ctx.db.query('SELECT 1 FROM wallet_event_listeners WHERE user_id = $1', [
          receiver.userId,
        ])
      ).rows.length;
    // Nobody listens yet: the receiver's events would send no NOTIFY.
    expect(await listeners()).toBe(0);
    const stream = await openStream(base, receiver.token, { language: 'en' });
    expect(stream.status).toBe(200);
    expect((await stream.next('ready')).data).toEqual({ resumed: false });
    expect(await listeners()).toBe(1);
    const sent = await transfer(sender, receiver, '150.00');
    expect(sent.status).toBe(200);
    const operation = await stream.next('transaction');
    expect(operation.data).toMatchObject({
      amount: '150.00',
      currency_code: 'RUB',
      balance: '150.00',
      wallet_transaction_type: 'transfer',
      status: 'complete',
      description: 'Transfer from Ivan P.',
    });
    expect((await stream.next('balance')).data).toMatchObject({ currency_code: 'RUB', balance: '150.00' });
    const notice = await stream.next('notification');
    expect(notice.data.unread).toBeGreaterThan(0);
    expect(notice.data.notification.message).toContain('150');
    expect(notice.id).toMatch(/^\d+\.\d+$/);
    stream.close();
    // The last stream of the person closed: nobody listens any more.
    const deadline = Date.now() + 3000;
    while ((await listeners()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await listeners()).toBe(0);
  });

  it.skipIf(!usePostgres)(
    'a transfer made through one instance reaches the receiver’s stream held by another',
    async () => {
      const sender = await person(server, { rub: 100_000n });
      const receiver = await person(server);
      const stream = await openStream(other!.base, receiver.token);
      await stream.next('ready');
      const started = Date.now();
      expect((await transfer(sender, receiver, '42.00', base)).status).toBe(200);
      const operation = await stream.next('transaction', 3000);
      expect(operation.data).toMatchObject({ amount: '42.00', balance: '42.00' });
      expect(Date.now() - started).toBeLessThan(2000);
      // And the sender's own stream on the other instance hears the money leave.
      const senderStream = await openStream(other!.base, sender.token);
      await senderStream.next('ready');
      expect((await transfer(sender, receiver, '8.00', base)).status).toBe(200);
      expect((await senderStream.next('transaction')).data).toMatchObject({ amount: '-8.00' });
      expect((await stream.next('balance')).data.balance).toBe('42.00');
      expect((await stream.next('balance')).data.balance).toBe('50.00');
      stream.close();
      senderStream.close();
    },
  );

  it('resumes with Last-Event-ID without losing an event', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    const first = await openStream(base, receiver.token);
    await first.next('ready');
    expect((await transfer(sender, receiver, '1.00')).status).toBe(200);
    await first.next('notification');
    const lastId = first.lastId!;
    first.close();
    // Three transfers while the app is away, on either instance.
    for (const amount of ['2.00', '3.00', '4.00'])
      expect((await transfer(sender, receiver, amount, other?.base ?? base)).status).toBe(200);
    const again = await openStream(other?.base ?? base, receiver.token, { lastEventId: lastId });
    expect((await again.next('ready')).data).toEqual({ resumed: true });
    const amounts = [];
    for (let i = 0; i < 3; i++) amounts.push((await again.next('transaction')).data.amount);
    expect(amounts).toEqual(['2.00', '3.00', '4.00']);
    // The place is the notifications' number and each account's version: three versions on.
    const [notes, version] = lastId.split('.').map(Number);
    expect(again.lastId).toBe(`${notes}.${version! + 3}`);
    // A number from the future is not a resume: the app reloads what it shows.
    const bogus = await openStream(base, receiver.token, { lastEventId: '999999.0' });
    expect((await bogus.next('ready')).data).toEqual({ resumed: false });
    again.close();
    bogus.close();
  });

  it('starts a page’s first stream from when the page asked for its data (replay_ms), not before', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    // The welcome is older than the page; so is the first transfer.
    await server.ctx.db.query(
      `UPDATE wallet_events SET created_at = now() - interval '1 minute' WHERE user_id = $1`,
      [receiver.userId],
    );
    expect((await transfer(sender, receiver, '1.00')).status).toBe(200);
    server.clock.advance(10_000);
    // The page asks for its data; money comes before its stream is open; the stream opens 3 s on.
    expect((await transfer(sender, receiver, '2.00')).status).toBe(200);
    server.clock.advance(3000);
    const page = await openStream(base, receiver.token, { path: '/v2/wallet/events?replay_ms=5000' });
    expect((await page.next('ready')).data).toEqual({ resumed: false });
    expect((await page.next('transaction')).data.amount).toBe('2.00');
    expect((await page.next('balance')).data.balance).toBe('3.00');
    expect((await page.next('notification')).data.notification.kind).toBe('money_in');
    expect(page.lastId).toMatch(/^\d+\.2$/);
    // Without a replay a stream starts from now: the next transfer is the first it hears.
    const now = await openStream(base, receiver.token);
    await now.next('ready');
    expect((await transfer(sender, receiver, '4.00')).status).toBe(200);
    expect((await now.next('transaction')).data.amount).toBe('4.00');
    expect((await page.next('transaction')).data.amount).toBe('4.00');
    page.close();
    now.close();
    // More than a minute back, or not a number: refused in the contract's shape before any stream.
    for (const replay of ['60001', 'soon', '-5']) {
      const refused = await server.call('GET', `/v2/wallet/events?replay_ms=${replay}`, {
        token: receiver.token,
      });
      expect(refused.status, replay).toBe(400);
      expect(isErrorShape(refused.body)).toBe(true);
    }
  });

  it('keeps notifications 15 minutes for resuming (money for ever); an older place starts afresh', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    expect((await transfer(sender, receiver, '1.00')).status).toBe(200);
    // Before anything: the welcome (notification 1) and the transfer (version 1 of the account).
    const fromStart = await openStream(base, receiver.token, { lastEventId: '0.0' });
    expect((await fromStart.next('ready')).data).toEqual({ resumed: true });
    expect((await fromStart.next('transaction')).data.amount).toBe('1.00');
    expect((await fromStart.next('notification')).data.notification.kind).toBe('money_in');
    expect((await fromStart.next('notification')).data.notification.kind).toBe('registration');
    expect(fromStart.lastId).toBe('1.1');
    fromStart.close();
    // The welcome is older than the 15 minutes kept: pruned, and a place before it is not resumed.
    await server.ctx.db.query(
      `UPDATE wallet_events SET created_at = now() - interval '16 minutes' WHERE user_id = $1`,
      [receiver.userId],
    );
    await pruneEvents(server.ctx.db);
    const old = await openStream(base, receiver.token, { lastEventId: '0.0' });
    expect((await old.next('ready')).data).toEqual({ resumed: false });
    old.close();
    // After it, money is never pruned: the transfer still comes.
    const money = await openStream(base, receiver.token, { lastEventId: '1.0' });
    expect((await money.next('ready')).data).toEqual({ resumed: true });
    expect((await money.next('transaction')).data.amount).toBe('1.00');
    money.close();
    // A place the server never gave (an account version from the future) is not a resume.
    const future = await openStream(base, receiver.token, { lastEventId: '1.9' });
    expect((await future.next('ready')).data).toEqual({ resumed: false });
    future.close();
  });

  it('holds at most 20 streams of one person: the oldest gives way', async () => {
    const someone = await person(server);
    const streams = [];
    for (let i = 0; i < 21; i++) {
      const stream = await openStream(base, someone.token);
      await stream.next('ready');
      streams.push(stream);
    }
    await streams[0]!.ended;
    for (const stream of streams) stream.close();
  });

  it('ends a revoked session’s stream with `session`', async () => {
    const someone = await person(server);
    const stream = await openStream(other?.base ?? base, someone.token);
    await stream.next('ready');
    expect((await server.call('POST', '/v2/wallet/auth/logout', { token: someone.token })).status).toBe(200);
    expect((await stream.next('session', 3000)).data).toEqual({ reason: 'revoked' });
    await stream.ended;
    const after = await openStream(base, someone.token);
    expect(after.status).toBe(401);
  });
});
