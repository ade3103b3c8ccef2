/**
 * A merchant's signed notifications: payment.succeeded, payment.canceled and refund.succeeded POSTed to its
 * URL (a local server: plain http to loopback is allowed outside production), signed with its webhook
 * secret; a failed delivery is logged with its answer code and thrown for the job system's retry; 'send
 * again' delivers it; a rotated secret signs from then on.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverNotification } from '../src/modules/merchants/notify.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { approvedMerchant, type TestMerchant } from './merchant-helpers.ts';
import { operator, startOps } from './ops-helpers.ts';
import { key, PIN, person } from './withdrawal-helpers.ts';

interface Received {
  signature: string;
  body: string;
}

describe(`merchant notifications (${databaseLabel})`, () => {
  let server: TestServer;
  let shop: TestMerchant;
  let hook: Server;
  let url: string;
  const received: Received[] = [];
  let answer = 200;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ signature: String(req.headers.signature), body });
        res.statusCode = answer;
        res.end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    server = await startTestServer({ clock });
    const back = await startOps(server);
    shop = await approvedMerchant(server, back, await operator(server, back, 'compliance'), {
      notification_url: url,
    });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => hook.close(resolve));
  });

  const secret = async () =>
    (await server.call('GET', '/v2/wallet/merchant', { token: shop.owner.token })).body.merchant
      .webhook_secret as string;
  /** Checks the signature as docs/merchants.md tells a shop to, and answers the body. */
  const verified = (got: Received, withSecret: string) => {
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(got.signature)!;
    expect(v1).toBe(createHmac('sha256', withSecret).update(`${t}.${got.body}`).digest('hex'));
    expect(Number(t)).toBe(Math.floor(clock.now().getTime() / 1000));
    return JSON.parse(got.body);
  };
  const create = async (amount = '500.00') =>
    (
      await shop.api('POST', '/merchant/v1/payments', {
        body: {
          amount,
          currency: 'RUB',
          description: 'Торт',
          order_id: 'o7',
          return_url: 'https://shop.example.ru/',
        },
      })
    ).body.id as string;

  it('payment.succeeded, refund.succeeded and payment.canceled arrive signed', async () => {
    const payer = await person(server, { rub: 100_000n });
    const id = await create();
    received.length = 0;
    const paid = await server.call('POST', `/v2/wallet/merchant-payments/${id}/pay`, {
      token: payer.token,
      body: { pin: PIN },
      headers: { 'idempotency-key': key() },
    });
    expect(paid.status).toBe(200);
    expect(received).toHaveLength(1);
    const succeeded = verified(received[0]!, await secret());
    expect(succeeded).toMatchObject({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id, status: 'succeeded', amount: '500.00', order_id: 'o7' },
    });

    clock.advance(1000);
    const refunded = await shop.api('POST', '/merchant/v1/refunds', {
      body: { payment_id: id, amount: '100.00' },
    });
    expect(refunded.status).toBe(200);
    expect(verified(received[1]!, await secret())).toMatchObject({
      event: 'refund.succeeded',
      object: { id: refunded.body.id, payment_id: id, amount: '100.00' },
    });

    clock.advance(1000);
    const other = await create();
    await shop.api('POST', `/merchant/v1/payments/${other}/cancel`);
    expect(verified(received[2]!, await secret())).toMatchObject({
      event: 'payment.canceled',
      object: { id: other, status: 'canceled' },
    });
    const log = await server.call('GET', '/v2/wallet/merchant/notifications', { token: shop.owner.token });
    expect(log.body.results.slice(0, 3)).toEqual([
      expect.objectContaining({
        event: 'payment.canceled',
        object_id: other,
        status: 'delivered',
        last_status: 200,
      }),
      expect.objectContaining({ event: 'refund.succeeded', status: 'delivered', attempts: 1 }),
      expect.objectContaining({ event: 'payment.succeeded', object_id: id, status: 'delivered' }),
    ]);
  });

  it('a failed delivery is logged and thrown for a retry; send again delivers it; a rotated secret signs', async () => {
    answer = 500;
    received.length = 0;
    clock.advance(1000);
    const id = await create();
    await shop.api('POST', `/merchant/v1/payments/${id}/cancel`);
    const log = await server.call('GET', '/v2/wallet/merchant/notifications', { token: shop.owner.token });
    const failed = log.body.results[0];
    expect(failed).toMatchObject({ object_id: id, status: 'pending', attempts: 1, last_status: 500 });
    // The job system's run of it throws, so pg-boss retries it with backoff.
    await expect(deliverNotification(server.ctx, failed.id)).rejects.toThrow(/500/);

    answer = 200;
    const rotated = await server.call('POST', '/v2/wallet/merchant/webhook-secret', {
      token: shop.owner.token,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook_secret).toMatch(/^whsec_/);
    expect(await secret()).toBe(rotated.body.webhook_secret);
    const again = await server.call('POST', `/v2/wallet/merchant/notifications/${failed.id}/resend`, {
      token: shop.owner.token,
    });
    expect(again.body).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
    verified(received.at(-1)!, rotated.body.webhook_secret);

    const stranger = await person(server, { level: 'full' });
    const foreign = await server.call('POST', `/v2/wallet/merchant/notifications/${failed.id}/resend`, {
      token: stranger.token,
    });
    expect(foreign.body.code).toBe('MERCHANT_NOT_FOUND');
    const missing = await server.call('POST', `/v2/wallet/merchant/notifications/${randomUUID()}/resend`, {
      token: shop.owner.token,
    });
    expect(missing.body.code).toBe('MERCHANT_NOTIFICATION_NOT_FOUND');
  });

  it('a merchant without a notification URL gets none', async () => {
    await server.call('PATCH', '/v2/wallet/merchant', {
      token: shop.owner.token,
      body: { notification_url: null },
    });
    received.length = 0;
    const id = await create();
    await shop.api('POST', `/merchant/v1/payments/${id}/cancel`);
    expect(received).toHaveLength(0);
    const log = await server.call('GET', '/v2/wallet/merchant/notifications', { token: shop.owner.token });
    expect(log.body.results.map((n: { object_id: string }) => n.object_id)).not.toContain(id);
  });
});
