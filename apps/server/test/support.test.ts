/**
 * The support chat (docs/decisions/support.md#support-chat), over real HTTP: a person's message reaches an
 * operator's stream (on PostgreSQL, the back office of a second instance) and the operator's answer
 * the person's stream; images are the server's re-encoding; another person's conversation is never
 * theirs; a repeated Idempotency-Key writes once; the per-person limit; the queue, read receipts,
 * closing and the audit of every reply.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { RunningContext } from '../src/create-context.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { buildOpsApp } from '../src/ops/server.ts';
import { databaseLabel, secondContext, startTestServer, type TestServer, usePostgres } from './helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { openStream } from './sse-client.ts';
import { DECLINED_CARD, type Person, person, withdraw } from './withdrawal-helpers.ts';

const PER_HOUR = 6;

describe(`the support chat (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let base: string;
  /** Where operators' streams are read: the second instance's back office on PostgreSQL. */
  let opsBase: string;
  let support: TestOperator;
  let other: { ctx: RunningContext; app: FastifyInstance; ops: FastifyInstance } | null = null;
  let localOps: FastifyInstance | null = null;

  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPORT_MESSAGES_PER_HOUR: String(PER_HOUR) } });
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    back = await startOps(server);
    support = await operator(server, back, 'support');
    if (usePostgres) {
      const ctx = await secondContext(server);
      const app = await buildApp(ctx, { logger: false });
      await app.ready();
      const ops = await buildOpsApp(ctx, { logger: false });
      opsBase = await ops.listen({ port: 0, host: '127.0.0.1' });
      other = { ctx, app, ops };
    } else {
      localOps = await buildOpsApp(server.ctx, { logger: false });
      opsBase = await localOps.listen({ port: 0, host: '127.0.0.1' });
    }
  }, 180_000);
  afterAll(async () => {
    if (other) {
      await other.ops.close();
      await other.app.close();
      await other.ctx.stop();
    }
    await localOps?.close();
    await back.app.close();
    await server.close();
  });

  const send = (who: Person, body: unknown, key: string = `test-${randomUUID()}`, language = 'ru') =>
    server.call('POST', '/v2/wallet/support/messages', {
      token: who.token,
      body,
      headers: { 'idempotency-key': key, 'accept-language': language },
    });
  const messages = (who: Person) => server.call('GET', '/v2/wallet/support/messages', { token: who.token });
  const asSupport = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    back.call(method, url, { token: support.token, ...(body !== undefined ? { body } : {}) });

  it('goes live from the person to an operator and back, with the failed operation attached', async () => {
    const anna = await person(server, { rub: 100_000n });
    const withdrawal = await withdraw(server, anna, { amount: '10', pan: DECLINED_CARD });
    expect(withdrawal.status).toBe(200);
    await runPayoutWorkerOnce(server.ctx);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: anna.token });
    const failed = history.body.results.find((t: { status: string }) => t.status === 'failed');
    expect(failed).toBeTruthy();

    const opsStream = await openStream(opsBase, support.token, { path: '/ops/v1/support/events' });
    expect(opsStream.status).toBe(200);
    await opsStream.next('ready');
    const personStream = await openStream(base, anna.token, { language: 'en' });
    await personStream.next('ready');

    const sent = await send(anna, { text: 'Вывод не прошёл, что случилось?', operation_id: failed.id });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('success');
    const changed = await opsStream.next('conversation');

    const queue = await asSupport('GET', '/ops/v1/support/conversations?status=open');
    expect(queue.status).toBe(200);
    const row = queue.body.results.find((c: { user_id: string }) => c.user_id === anna.userId);
    expect(row).toMatchObject({
      id: changed.data.id,
      unread: 1,
      last_text: 'Вывод не прошёл, что случилось?',
    });
    expect(row.wait_seconds).toBeGreaterThanOrEqual(0);

    const read = await asSupport('GET', `/ops/v1/support/conversations/${row.id}/messages`);
    expect(read.status).toBe(200);
    expect(read.body.results[0].operation).toMatchObject({
      id: failed.id,
      status: 'failed',
      kind: 'withdrawal',
    });
    // The person sees the operator has read it.
    expect((await messages(anna)).body.results[0].read).toBe(true);

    // The answer comes a moment later (the test clock stands still otherwise).
    server.clock.advance(1_000);
    const reply = await asSupport('POST', `/ops/v1/support/conversations/${row.id}/messages`, {
      text: 'Банк карты отклонил выплату, деньги вернулись на счёт.',
    });
    expect(reply.status).toBe(200);
    const notice = await personStream.next('notification');
    expect(notice.data.notification.kind).toBe('support');
    expect(notice.data.notification.message).toBe('Support has answered you');
    const page = await messages(anna);
    expect(page.body.unread).toBe(1);
    expect(page.body.results[0]).toMatchObject({ author: 'operator', read: false });
    expect((await server.call('POST', '/v2/wallet/support/read', { token: anna.token })).body).toEqual({
      status: 'success',
      unread: 0,
    });
    expect((await messages(anna)).body.unread).toBe(0);

    // Every reply is audited.
    const audit = await asSupport('GET', `/ops/v1/audit?user=${anna.userId}`);
    expect(audit.body.results.map((line: { action: string }) => line.action)).toContain('support_reply');
    opsStream.close();
    personStream.close();
  });

  it('keeps only the server’s own JPEGs of the images', async () => {
    const ivan = await person(server);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#22aa55' } })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-marker' } } })
      .toBuffer();
    const sent = await send(ivan, {
      text: '',
      images: [{ content_type: 'image/png', data: png.toString('base64') }],
    });
    expect(sent.status).toBe(200);
    const [message] = (await messages(ivan)).body.results;
    expect(message.images).toHaveLength(1);
    const url: string = message.images[0];
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const kept = Buffer.from(url.slice('data:image/jpeg;base64,'.length), 'base64');
    const meta = await sharp(kept).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(kept.includes(Buffer.from('secret-marker'))).toBe(false);

    // Not an image of the type it claims: refused, nothing kept.
    const fake = Buffer.concat([png.subarray(0, 16), Buffer.from('<html><script>alert(1)</script></html>')]);
    const refused = await send(ivan, {
      text: 'x',
      images: [{ content_type: 'image/png', data: fake.toString('base64') }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('FIELD_INVALID');
    const four = Array.from({ length: 4 }, () => ({
      content_type: 'image/png',
      data: png.toString('base64'),
    }));
    expect((await send(ivan, { text: 'x', images: four })).status).toBe(400);
    expect((await messages(ivan)).body.results).toHaveLength(1);
  });

  it('never shows another person’s conversation or operation', async () => {
    const anna = await person(server, { rub: 100_000n });
    const boris = await person(server);
    await withdraw(server, anna, { amount: '5' });
    const history = await server.call('GET', '/v2/wallet/transaction', { token: anna.token });
    const annas = history.body.results[0].id;
    expect((await send(anna, { text: 'Вопрос Анны' })).status).toBe(200);
    // Boris sees only his own (none), and cannot attach Anna's operation.
    expect((await messages(boris)).body).toEqual({ results: [], next: null, unread: 0, status: 'none' });
    const attached = await send(boris, { text: 'чужая операция', operation_id: annas });
    expect(attached.status).toBe(404);
    expect(attached.body.code).toBe('OPERATION_NOT_FOUND');
    expect((await send(boris, { text: 'Вопрос Бориса' })).status).toBe(200);
    const page = await messages(boris);
    expect(page.body.results.map((m: { text: string }) => m.text)).toEqual(['Вопрос Бориса']);
    // Without a token nothing is read.
    expect((await server.call('GET', '/v2/wallet/support/messages')).status).toBe(401);
  });

  it('writes a repeated key once, refuses empty, controls and too many messages', async () => {
    const olga = await person(server);
    const key = `test-${randomUUID()}`;
    const first = await send(olga, { text: 'Один раз' }, key);
    const again = await send(olga, { text: 'Один раз' }, key);
    expect(again.body).toEqual(first.body);
    expect((await send(olga, { text: 'Другой текст' }, key)).body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await messages(olga)).body.results).toHaveLength(1);

    expect((await send(olga, { text: '   ' })).body.code).toBe('FIELD_REQUIRED');
    expect((await send(olga, { text: 'строка\u0000ноль' })).body.code).toBe('FIELD_INVALID');
    expect((await send(olga, { text: 'x'.repeat(2001) })).status).toBe(400);

    for (let i = 1; i < PER_HOUR; i++) expect((await send(olga, { text: `№${i}` })).status).toBe(200);
    const limited = await send(olga, { text: 'ещё одно' }, undefined, 'en');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please try again later',
    });
  });

  it('puts the longest waiting first, and closes a conversation (audited)', async () => {
    const first = await person(server);
    const second = await person(server);
    await send(first, { text: 'первый' });
    server.clock.advance(60_000);
    await send(second, { text: 'второй' });
    const queue = await asSupport('GET', '/ops/v1/support/conversations?status=open&limit=100');
    const order = queue.body.results
      .filter((c: { wait_seconds: number | null }) => c.wait_seconds !== null)
      .map((c: { user_id: string }) => c.user_id);
    expect(order.indexOf(first.userId)).toBeLessThan(order.indexOf(second.userId));
    const id = queue.body.results.find((c: { user_id: string }) => c.user_id === first.userId).id;
    expect((await asSupport('POST', `/ops/v1/support/conversations/${id}/close`)).status).toBe(200);
    expect((await asSupport('POST', `/ops/v1/support/conversations/${id}/close`)).status).toBe(409);
    expect((await messages(first)).body.status).toBe('closed');
    const closed = await asSupport('GET', '/ops/v1/support/conversations?status=closed');
    expect(closed.body.results.map((c: { id: string }) => c.id)).toContain(id);
    // Writing again reopens it.
    await send(first, { text: 'снова' });
    expect((await messages(first)).body.status).toBe('open');
    // A finance operator may answer too; a wallet token is no operator's.
    const finance = await operator(server, back, 'finance');
    expect((await back.call('GET', '/ops/v1/support/conversations', { token: finance.token })).status).toBe(
      200,
    );
    expect((await back.call('GET', '/ops/v1/support/conversations', { token: first.token })).status).toBe(
      401,
    );
  });
});
