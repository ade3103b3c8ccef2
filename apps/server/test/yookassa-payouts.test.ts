/**
 * The YooKassa payouts adapter against a local fake of its HTTP API: what is sent (auth, Idempotence-Key,
 * amount, card), how statuses map, refusals and outages, the outcome found by asking (fetch) or told by
 * YooKassa's notification (then the API's answer), options validated at boot, and bank-account payments refused up front.
 */
import { accountChecksumOk } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { createPayoutsProvider } from '../src/providers/payouts/index.ts';
import {
  PayoutRejected,
  PayoutUnavailable,
  payoutStatusOf,
} from '../src/providers/payouts/payouts-provider.ts';
import { YooKassaPayoutsProvider } from '../src/providers/payouts/yookassa.ts';
import { FakeYooKassaPayouts, yooKassaPayoutsEnv } from './fakes/yookassa-payouts.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, PIN, payoutWebhook, person, tablesContaining, withdraw } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe('payout statuses and options', () => {
  it('maps each provider status in one place and refuses to guess an unknown one', () => {
    expect(payoutStatusOf('pending')).toBe('pending');
    expect(payoutStatusOf('succeeded')).toBe('succeeded');
    expect(payoutStatusOf('canceled')).toBe('canceled');
    expect(() => payoutStatusOf('waiting_for_capture')).toThrow(PayoutUnavailable);
  });

  it('validates the options at boot', () => {
    const noAgent = loadConfig({
      WALLET_ENV: 'test',
      PAYOUTS_PROVIDER: 'yookassa',
      YOOKASSA_SECRET_KEY: 'x',
    });
    expect(() => new YooKassaPayoutsProvider(noAgent)).toThrow(ConfigError);
    expect(() => loadConfig({ WALLET_ENV: 'test', PAYOUTS_PROVIDER: 'yookassa' })).toThrow(
      /YOOKASSA_SECRET_KEY/,
    );
    expect(() =>
      loadConfig({ WALLET_ENV: 'production', PAYOUTS_PROVIDER: 'sandbox', PIN_KEY: 'k'.repeat(20) }),
    ).toThrow(ConfigError);
  });
});

describe(`YooKassa payouts against a fake API (${databaseLabel})`, () => {
  const fake = new FakeYooKassaPayouts();
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    await fake.start();
    server = await startTestServer({ clock, env: yooKassaPayoutsEnv(fake) });
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });
  afterEach(() => expectLedgerSound(server));

  const receiptOf = async (token: string, id: string) =>
    (await server.call('GET', `/v2/wallet/withdrawal/${id}`, { token })).body;

  it('is the provider the configuration chose', () => {
    expect(server.ctx.payouts).toBeInstanceOf(YooKassaPayoutsProvider);
    expect(createPayoutsProvider(server.config, server.ctx.db, clock).id).toBe('yookassa');
  });

  it('sends the payout in YooKassa’s shape and settles it once the provider says it succeeded', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await withdraw(server, ivan, { amount: '300', pan: '4111 1111 1111 1111' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.receipt.id;
    const sent = fake.requests.find(
      (r) => r.method === 'POST' && (r.body as any)?.metadata?.reference === id,
    )!;
    expect(sent.path).toBe('/payouts');
    expect(sent.idempotenceKey).toBe(`payout:${id}`);
    expect(sent.authorization).toBe(
      `Basic ${Buffer.from(`${fake.agentId}:${fake.secretKey}`).toString('base64')}`,
    );
    expect(sent.body).toMatchObject({
      amount: { value: '300.00', currency: 'RUB' },
      payout_destination_data: { type: 'bank_card', card: { number: '4111111111111111' } },
    });
    const payout = fake.byReference(id)!;
    const { rows } = await server.ctx.db.query<{ provider: string; provider_ref: string; status: string }>(
      'SELECT provider, provider_ref, status FROM payouts WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ provider: 'yookassa', provider_ref: payout.id, status: 'pending' });
    expect(await balance(server, ivan)).toBe('700.00');

    // Still pending at YooKassa: the worker's check changes nothing.
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0);
    fake.settle(payout.id, 'succeeded');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(0); // not time to ask again yet
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect((await receiptOf(ivan.token, id)).status).toBe('complete');
    expect(await balance(server, ivan)).toBe('700.00');
    expect(await tablesContaining(server, '4111111111111111')).toEqual([]);
  });

  it('a canceled payout releases the hold with the reason', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await withdraw(server, ivan, { amount: '250' });
    const payout = fake.byReference(created.body.receipt.id)!;
    fake.settle(payout.id, 'canceled', 'insufficient_funds');
    clock.advance(60_001);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const receipt = await receiptOf(ivan.token, created.body.receipt.id);
    expect(receipt).toMatchObject({
      status: 'failed',
      failure_reason: 'Недостаточно средств для выплаты у платёжного агента',
    });
    expect(await balance(server, ivan)).toBe('1000.00');
  });

  it("YooKassa's notification settles a payout only as its API tells; the sandbox's signed route does not exist", async () => {
    const ivan = await person(server, { rub: rub(100) });
    const created = await withdraw(server, ivan, { amount: '10' });
    const payout = fake.byReference(created.body.receipt.id)!;
    // Our HMAC, made with the server's own secret, is the sandbox's way only: the route is absent.
    const signed = await payoutWebhook(server, {
      event: 'payout.succeeded',
      payout_id: payout.id,
      reference: created.body.receipt.id,
      reason: null,
      occurred_at: clock.now().toISOString(),
    });
    expect(signed.status).toBe(404);
    expect(signed.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    const notify = (body: unknown) =>
      server.call('POST', '/v2/wallet/webhooks/payouts/yookassa', { body: JSON.stringify(body) });
    const notification = { type: 'notification', event: 'payout.succeeded', object: { id: payout.id } };
    // YooKassa still says pending: a notification claiming success moves nothing.
    expect((await notify(notification)).status).toBe(200);
    expect((await receiptOf(ivan.token, created.body.receipt.id)).status).toBe('pending');
    expect((await notify({ ...notification, object: { id: 'po-unknown' } })).status).toBe(401);
    expect((await notify({ hello: 'world' })).status).toBe(401);
    fake.settle(payout.id, 'succeeded');
    expect((await notify(notification)).status).toBe(200);
    expect((await notify(notification)).status).toBe(200);
    expect((await receiptOf(ivan.token, created.body.receipt.id)).status).toBe('complete');
    expect(await balance(server, ivan)).toBe('90.00');
  });

  it('a refusal (4xx) releases the hold at once', async () => {
    const ivan = await person(server, { rub: rub(100) });
    fake.failNext(400, { type: 'error', code: 'invalid_request', description: 'Card is blocked' });
    const created = await withdraw(server, ivan, { amount: '40' });
    expect(created.status).toBe(200);
    expect(created.body.receipt.status).toBe('pending');
    expect((await receiptOf(ivan.token, created.body.receipt.id)).status).toBe('failed');
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('an outage (5xx) keeps the money held: the outcome is unknown, nothing is guessed', async () => {
    const ivan = await person(server, { rub: rub(100) });
    fake.failNext(500);
    const created = await withdraw(server, ivan, { amount: '40' });
    expect(created.status).toBe(200);
    clock.advance(10 * 60_000);
    await runPayoutWorkerOnce(server.ctx);
    expect((await receiptOf(ivan.token, created.body.receipt.id)).status).toBe('pending');
    expect(await balance(server, ivan)).toBe('60.00');
  });

  it('refuses a GOST payment up front: YooKassa payouts cannot pay a bank account', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const bic = '044525225';
    let account = '';
    for (let d = 0; d <= 9 && !account; d++) {
      const candidate = `40702810${d}00000012345`;
      if (accountChecksumOk(bic, candidate)) account = candidate;
    }
    const qr = `ST00012|Name=ООО|PersonalAcc=${account}|BankName=Банк|BIC=${bic}|CorrespAcc=30101810400000000225|Sum=100`;
    const answer = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: { qr, currency_code: 'RUB', pin: PIN },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('QR_UNSUPPORTED');
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('the adapter: one payout per Idempotence-Key, errors by kind, statuses fetched', async () => {
    const provider = server.ctx.payouts as YooKassaPayoutsProvider;
    const request = {
      reference: '11111111-1111-4111-8111-111111111111',
      idempotenceKey: 'payout:adapter-test',
      amount: 12_345n,
      currency: 'RUB' as const,
      destination: { type: 'bank_card' as const, number: '5555555555554444' },
      description: 'test',
    };
    const first = await provider.payout(request);
    const again = await provider.payout(request);
    expect(again.providerId).toBe(first.providerId);
    expect(first.status).toBe('pending');
    expect(fake.payouts.get(first.providerId)!.amount.value).toBe('123.45');
    fake.settle(first.providerId, 'canceled', 'something_new');
    expect(await provider.fetch(first.providerId)).toMatchObject({
      status: 'canceled',
      reason: 'Выплата отклонена',
    });
    fake.failNext(422, { type: 'error', description: 'bad' });
    await expect(provider.payout({ ...request, idempotenceKey: 'payout:x2' })).rejects.toBeInstanceOf(
      PayoutRejected,
    );
    fake.failNext(503);
    await expect(provider.fetch(first.providerId)).rejects.toBeInstanceOf(PayoutUnavailable);
    fake.failNext(200, { nonsense: true });
    await expect(provider.fetch(first.providerId)).rejects.toBeInstanceOf(PayoutUnavailable);
    expect(provider.supports('bank_account')).toBe(false);
    const unreachable = new YooKassaPayoutsProvider({
      ...server.config,
      YOOKASSA_API_URL: 'http://127.0.0.1:9/v3',
    });
    const failure = (await unreachable.payout(request).catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(PayoutUnavailable);
    expect(failure.message).not.toContain('5555555555554444');
  });
});
