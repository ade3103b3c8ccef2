/**
 * The YooKassa payments adapter against a local fake of YooKassa's API (test/fakes/yookassa-payments.ts):
 * creating the payment (Basic auth, Idempotence-Key, amount and redirect confirmation), notifications
 * verified by fetching the payment (an unsigned notification is only a hint), cancellation, status
 * reconciliation, an outage, and the options checked at boot.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/context.ts';
import type { Db } from '../src/db/client.ts';
import { transfersByReference } from '../src/ledger/index.ts';
import { createPaymentsProvider } from '../src/providers/payments/index.ts';
import {
  mapYooKassaStatus,
  YOOKASSA_WEBHOOK_PATH,
  YooKassaPaymentsProvider,
} from '../src/providers/payments/yookassa.ts';
import { signPayload } from '../src/providers/signature.ts';
import { type FakeYooKassa, startFakeYooKassa } from './fakes/yookassa-payments.ts';
import { ledgerViolations } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { balance, newUser, orderStatus, started, topUp } from './topup-helpers.ts';

const SHOP_ID = '123456';
const SECRET_KEY = 'test_secret_key_0001';

describe(`YooKassa payments adapter (${databaseLabel})`, () => {
  let fake: FakeYooKassa;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeYooKassa({ shopId: SHOP_ID, secretKey: SECRET_KEY });
    server = await startTestServer({
      env: {
        PAYMENTS_PROVIDER: 'yookassa',
        YOOKASSA_API_URL: fake.url,
        YOOKASSA_SHOP_ID: SHOP_ID,
        YOOKASSA_SECRET_KEY: SECRET_KEY,
        PUBLIC_URL: 'https://wallet.example',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(server.ctx.db)).toEqual([]);
  });

  const notify = (body: unknown) => server.call('POST', YOOKASSA_WEBHOOK_PATH, { body });
  const paymentIdOf = (url: string) => new URL(url).searchParams.get('orderId')!;

  it('is selected by PAYMENTS_PROVIDER and has no sandbox page', async () => {
    expect(server.ctx.payments).toBeInstanceOf(YooKassaPaymentsProvider);
    const page = await server.app.inject({
      method: 'GET',
      url: '/sandbox/pay/00000000-0000-4000-8000-000000000000',
    });
    expect(page.statusCode).toBe(404);
  });

  it('creates the payment in YooKassa API shape and answers its confirmation url', async () => {
    const { token } = await newUser(server);
    const before = fake.requests.length;
    const { order, url, body } = await started(server, token, '1500.00', 'yk-create-key-1');
    const created = fake.requests.slice(before).filter((r) => r.method === 'POST');
    expect(created).toHaveLength(1);
    const request = created[0]!;
    expect(request.path).toBe('/v3/payments');
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${SHOP_ID}:${SECRET_KEY}`).toString('base64')}`,
    );
    expect(request.headers['idempotence-key']).toBe(order);
    expect(request.body).toEqual({
      amount: { value: '1500.00', currency: 'RUB' },
      capture: true,
      confirmation: {
        type: 'redirect',
        return_url: `https://wallet.example/wallet/payments/finish?order=${order}`,
      },
      description: expect.any(String),
      metadata: { order_id: order },
    });
    const payment = fake.payments.get(paymentIdOf(url))!;
    expect(url).toBe(payment.confirmation.confirmation_url);
    // A repeat with the same key answers the same and asks YooKassa nothing new.
    const count = fake.requests.length;
    expect((await topUp(server, token, '1500.00', { key: 'yk-create-key-1' })).body).toEqual(body);
    expect(fake.requests.length).toBe(count);
  });

  it('a succeeded notification is verified by fetching the payment, and credits once', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '200.00');
    const id = paymentIdOf(url);

    // A notification claiming success while YooKassa says pending moves nothing.
    const forged = await notify({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id, status: 'succeeded', paid: true, amount: { value: '200.00', currency: 'RUB' } },
    });
    expect(forged.status).toBe(200);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v3/payments/${id}` });
    expect(await balance(server, userId)).toBe(0n);
    const pending = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM topup_orders WHERE id = $1',
      [order],
    );
    expect(pending.rows[0]!.status).toBe('pending');

    fake.succeed(id);
    for (let i = 0; i < 3; i++) {
      const res = await notify(fake.notification(id, 'payment.succeeded'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
    }
    expect(await balance(server, userId)).toBe(20_000n);
    expect(await transfersByReference(server.ctx.db, 'topup_order', order)).toHaveLength(1);
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
  });

  it('a notification for a payment YooKassa does not have, or not a notification, is refused', async () => {
    const unknown = await notify({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id: 'nope-1' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const garbage = await notify({ hello: 'world' });
    expect(garbage.status).toBe(401);
  });

  it("the sandbox's signed route does not exist: a body signed with the server's secret credits nothing", async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '300.00');
    const body = JSON.stringify({
      event: 'payment.succeeded',
      payment_id: paymentIdOf(url),
      order,
      amount: '300.00',
      currency_code: 'RUB',
      occurred_at: server.clock.now().toISOString(),
    });
    const res = await server.call('POST', '/v2/wallet/webhooks/payments', {
      body,
      headers: { 'x-signature': signPayload(server.config.WEBHOOK_SECRET, body, server.clock.now()) },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    expect(await balance(server, userId)).toBe(0n);
  });

  it('a canceled payment fails the order', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '300.00');
    const id = paymentIdOf(url);
    fake.cancel(id);
    expect((await notify(fake.notification(id, 'payment.canceled'))).status).toBe(200);
    expect((await orderStatus(server, token, order)).body.status).toBe('failed');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('without a notification, the status call reconciles with YooKassa', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '400.00');
    expect((await orderStatus(server, token, order)).body.status).toBe('pending');
    fake.succeed(paymentIdOf(url));
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect(await balance(server, userId)).toBe(40_000n);
    // While YooKassa is away a pending order just stays pending.
    const second = await started(server, token, '10.00');
    fake.failNext(1);
    expect((await orderStatus(server, token, second.order)).body.status).toBe('pending');
  });

  it('an outage answers PROVIDER_UNAVAILABLE; the retry with the same key makes one payment', async () => {
    const { token } = await newUser(server);
    const paymentsBefore = fake.payments.size;
    fake.failNext(1, 503);
    const failed = await topUp(server, token, '50.00', { key: 'yk-outage-key-1' });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('PROVIDER_UNAVAILABLE');
    const retried = await started(server, token, '50.00', 'yk-outage-key-1');
    expect(fake.payments.size).toBe(paymentsBefore + 1);
    expect(fake.payments.get(paymentIdOf(retried.url))!.metadata.order_id).toBe(retried.order);
    // A notification while YooKassa is down is answered with an error, so YooKassa sends it again.
    fake.failNext(1);
    const res = await notify(fake.notification(paymentIdOf(retried.url), 'payment.succeeded'));
    expect(res.status).toBe(503);
  });

  it('maps every YooKassa status in one place', () => {
    expect(mapYooKassaStatus('pending')).toBe('pending');
    expect(mapYooKassaStatus('waiting_for_capture')).toBe('pending');
    expect(mapYooKassaStatus('succeeded')).toBe('succeeded');
    expect(mapYooKassaStatus('canceled')).toBe('canceled');
    expect(() => mapYooKassaStatus('refunded')).toThrow();
  });

  it('checks its options at boot', () => {
    const db = {} as Db;
    const base = { PAYMENTS_PROVIDER: 'yookassa', YOOKASSA_SECRET_KEY: SECRET_KEY };
    expect(() => createPaymentsProvider(loadConfig(base), db, systemClock)).toThrow(/YOOKASSA_SHOP_ID/);
    expect(() =>
      createPaymentsProvider(loadConfig({ ...base, YOOKASSA_SHOP_ID: 'shop' }), db, systemClock),
    ).toThrow(/YOOKASSA_SHOP_ID/);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'yookassa', YOOKASSA_SHOP_ID: SHOP_ID })).toThrow(
      /YOOKASSA_SECRET_KEY/,
    );
    expect(
      createPaymentsProvider(loadConfig({ ...base, YOOKASSA_SHOP_ID: SHOP_ID }), db, systemClock).id,
    ).toBe('yookassa');
  });
  it('lists the payments of a period for reconciliation, page by page', async () => {
    const { token } = await newUser(server);
    const { order, url } = await started(server, token, '250.00');
    fake.succeed(paymentIdOf(url));
    // Enough payments for two pages of 100.
    const at = new Date().toISOString();
    for (let i = 0; i < 120; i++)
      fake.payments.set(`list-${i}`, {
        ...fake.payments.get(paymentIdOf(url))!,
        id: `list-${i}`,
        status: 'canceled',
        metadata: {},
        created_at: at,
      });
    const records = await server.ctx.payments.records!(
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 60_000),
    );
    const inFake = [...fake.payments.values()].length;
    expect(records).toHaveLength(inFake);
    expect(records.find((r) => r.reference === order)).toMatchObject({
      providerId: paymentIdOf(url),
      amount: 25000n,
      currency: 'RUB',
      status: 'succeeded',
    });
    const listed = fake.requests.filter((r) => r.method === 'GET' && r.path === '/v3/payments');
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(
      await server.ctx.payments.records!(new Date(Date.now() + 3_600_000), new Date(Date.now() + 7_200_000)),
    ).toEqual([]);
  });
});
