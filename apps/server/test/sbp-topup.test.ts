/**
 * Top-ups by СБП (docs/decisions/sbp.md#top-up-by-sbp): `method: 'sbp'` on POST /v2/wallet/top-up, the
 * sandbox's СБП page (a QR, pay or decline) and YooKassa's `payment_method_data: {type: 'sbp'}`; the
 * notification credits once through the card top-up's one path.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transfersByReference } from '../src/ledger/index.ts';
import { YOOKASSA_WEBHOOK_PATH } from '../src/providers/payments/yookassa.ts';
import { type FakeYooKassa, startFakeYooKassa } from './fakes/yookassa-payments.ts';
import { ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { balance, newUser, orderStatus, submitCard, TOP_UP } from './topup-helpers.ts';

const sbpTopUp = (
  server: TestServer,
  token: string,
  amount: string,
  extra: Record<string, unknown> = {},
  key?: string,
) =>
  server.call('POST', TOP_UP, {
    token,
    body: { amount, currency_code: 'RUB', method: 'sbp', ...extra },
    headers: key ? { 'idempotency-key': key } : {},
  });

describe(`top-up by СБП, sandbox (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    expect(await ledgerViolations(server.ctx.db)).toEqual([]);
  });

  it('shows the СБП page with a QR; paying credits once, as «Пополнение через СБП»', async () => {
    const { token, userId } = await newUser(server);
    const started = await sbpTopUp(server, token, '500.00');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { url, order } = started.body;
    const page = await server.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Оплата через СБП');
    expect(page.body).toContain(`${url}/qr.svg`);
    expect(page.body).not.toContain('Номер карты');
    const qr = await server.app.inject({ method: 'GET', url: `${url}/qr.svg` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(qr.body).toContain('<svg');

    const paid = await submitCard(server, url, { action: 'pay' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/wallet/payments/finish?order=${order}`);
    // A second click changes nothing.
    expect((await submitCard(server, url, { action: 'pay' })).statusCode).toBe(303);
    expect(await balance(server, userId)).toBe(50_000n);
    const credits = await transfersByReference(server.ctx.db, 'topup_order', order);
    expect(credits).toHaveLength(1);
    expect(credits[0]!.description?.credit).toMatchObject({
      ru: 'Пополнение через СБП',
      en: 'Top-up by SBP',
    });
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    const done = await server.app.inject({ method: 'GET', url });
    expect(done.body).toContain('Платёж проведён');
  });

  it('declining on the СБП page fails the order; nothing moves', async () => {
    const { token, userId } = await newUser(server);
    const { body } = await sbpTopUp(server, token, '100');
    expect((await submitCard(server, body.url, { action: 'decline' })).statusCode).toBe(303);
    expect((await orderStatus(server, token, body.order)).body.status).toBe('failed');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('card stays the default; a card page has no QR; an unknown method is refused', async () => {
    const { token } = await newUser(server);
    const card = await server.call('POST', TOP_UP, { token, body: { amount: '10', currency_code: 'RUB' } });
    expect(card.status).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: card.body.url })).body).toContain('Номер карты');
    expect((await server.app.inject({ method: 'GET', url: `${card.body.url}/qr.svg` })).statusCode).toBe(404);
    const bad = await sbpTopUp(server, token, '10', { method: 'crypto' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('FIELD_INVALID');
  });

  it('one Idempotency-Key is one order: the same method repeats, another conflicts', async () => {
    const { token } = await newUser(server);
    const first = await sbpTopUp(server, token, '10', {}, 'sbp-topup-key-0001');
    expect((await sbpTopUp(server, token, '10', {}, 'sbp-topup-key-0001')).body).toEqual(first.body);
    const card = await server.call('POST', TOP_UP, {
      token,
      body: { amount: '10', currency_code: 'RUB' },
      headers: { 'idempotency-key': 'sbp-topup-key-0001' },
    });
    expect(card.status).toBe(409);
    expect(card.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });
});

describe(`top-up by СБП, YooKassa against a fake API (${databaseLabel})`, () => {
  let fake: FakeYooKassa;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeYooKassa({ shopId: '123456', secretKey: 'test_secret_key_0001' });
    server = await startTestServer({
      env: {
        PAYMENTS_PROVIDER: 'yookassa',
        YOOKASSA_API_URL: fake.url,
        YOOKASSA_SHOP_ID: '123456',
        YOOKASSA_SECRET_KEY: 'test_secret_key_0001',
        PUBLIC_URL: 'https://wallet.example',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('asks for payment_method_data sbp; the verified notification credits once', async () => {
    const { token, userId } = await newUser(server);
    const started = await sbpTopUp(server, token, '700.00');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const request = fake.requests.findLast((r) => r.method === 'POST')!;
    expect(request.body).toMatchObject({
      amount: { value: '700.00', currency: 'RUB' },
      payment_method_data: { type: 'sbp' },
      confirmation: { type: 'redirect' },
    });
    const id = new URL(started.body.url).searchParams.get('orderId')!;
    fake.succeed(id);
    for (let i = 0; i < 2; i++)
      expect(
        (
          await server.call('POST', YOOKASSA_WEBHOOK_PATH, {
            body: fake.notification(id, 'payment.succeeded'),
          })
        ).status,
      ).toBe(200);
    expect(await balance(server, userId)).toBe(70_000n);
    expect(await transfersByReference(server.ctx.db, 'topup_order', started.body.order)).toHaveLength(1);
    // A notification for a payment YooKassa does not have changes nothing.
    const unknown = await server.call('POST', YOOKASSA_WEBHOOK_PATH, {
      body: { type: 'notification', event: 'payment.succeeded', object: { id: 'no-such-payment' } },
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(await balance(server, userId)).toBe(70_000n);
  });
});
