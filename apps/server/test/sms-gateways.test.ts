/**
 * The SMS.ru and SMSC adapters against local fakes of their HTTP APIs: the code of a registration
 * travels through the gateway and confirms it; network errors and 5xx are retried with backoff;
 * the gateways' status codes end as delivered or failed in sms_messages, which never holds a text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { GatewayTiming, HttpSmsGateway } from '../src/providers/sms/gateway.ts';
import { SmscProvider, smscDeliveryStatus } from '../src/providers/sms/smsc.ts';
import { SmsRuProvider, smsRuDeliveryStatus } from '../src/providers/sms/smsru.ts';
import { PERSON } from './auth-helpers.ts';
import { type FakeGateway, startFakeSmsc, startFakeSmsRu } from './fakes/sms-gateways.ts';
import { databaseLabel, startTestServer, type TestServer, uniquePhone } from './helpers.ts';

const FAST: GatewayTiming = { attempts: 4, backoffMs: 5, statusPollMs: [5, 5, 5] };

interface Case {
  name: 'smsru' | 'smsc';
  start(): Promise<FakeGateway>;
  provider(server: TestServer, url: string): HttpSmsGateway;
  delivered: number;
  undeliverable: number;
  /** A permanent refusal of a send and a temporary one. */
  refused: number;
  busy: number;
}

const CASES: Case[] = [
  {
    name: 'smsru',
    start: () => startFakeSmsRu('test-api-id'),
    provider: (server, url) =>
      new SmsRuProvider({ apiUrl: url, apiId: 'test-api-id' }, server.ctx.db, server.clock, FAST),
    delivered: 103,
    undeliverable: 104,
    refused: 207,
    busy: 220,
  },
  {
    name: 'smsc',
    start: () => startFakeSmsc('wallet', 'secret-psw'),
    provider: (server, url) =>
      new SmscProvider(
        { apiUrl: url, login: 'wallet', password: 'secret-psw' },
        server.ctx.db,
        server.clock,
        FAST,
      ),
    delivered: 1,
    undeliverable: 20,
    refused: 7,
    busy: 9,
  },
];

describe.each(CASES)(`the $name gateway (${databaseLabel})`, (gatewayCase) => {
  let server: TestServer;
  let fake: FakeGateway;
  let gateway: HttpSmsGateway;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    server = await startTestServer();
    fake = await gatewayCase.start();
    gateway = gatewayCase.provider(server, fake.url);
    app = await buildApp({ ...server.ctx, sms: gateway }, { logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await gateway.idle();
    await app.close();
    await fake.close();
    await server.close();
  });

  const register = (phone: string) =>
    app.inject({ method: 'POST', url: '/v2/wallet/auth/register', payload: { ...PERSON, phone } });
  const messages = async (phone: string) =>
    (
      await server.ctx.db.query<Record<string, unknown>>(
        'SELECT * FROM sms_messages WHERE phone = $1 ORDER BY created_at',
        [phone],
      )
    ).rows;

  it('sends the code through the gateway; the code confirms; the status ends delivered; no text is kept', async () => {
    fake.setDeliveryStatus(gatewayCase.delivered);
    const phone = uniquePhone();
    expect((await register(phone)).statusCode).toBe(200);
    await gateway.idle();
    const text = fake.texts.find((t) => t.phone === phone.slice(1));
    expect(text).toBeDefined();
    const code = /\d{4}/.exec(text!.text)![0];
    const confirmed = await app.inject({
      method: 'POST',
      url: '/v2/wallet/auth/register/phone/confirm',
      payload: { phone, confirm_code: code },
    });
    expect(confirmed.statusCode).toBe(200);
    const [row] = await messages(phone);
    expect(row).toMatchObject({ provider: gatewayCase.name, kind: 'code', status: 'delivered', attempts: 1 });
    expect(JSON.stringify(row)).not.toContain(code);
    // The form fields the real API reads.
    const send = fake.requests.find(
      (r) => r.path.includes('send') && (r.form.to ?? r.form.phones) === phone.slice(1),
    );
    if (gatewayCase.name === 'smsru') expect(send!.form).toMatchObject({ api_id: 'test-api-id', json: '1' });
    else expect(send!.form).toMatchObject({ login: 'wallet', psw: 'secret-psw', fmt: '3', charset: 'utf-8' });
  });

  it('retries network errors and 5xx answers with backoff, then delivers', async () => {
    fake.setDeliveryStatus(gatewayCase.delivered);
    const phone = uniquePhone();
    fake.failNext(2, 'drop');
    expect((await register(phone)).statusCode).toBe(200);
    await gateway.idle();
    expect(await messages(phone)).toMatchObject([{ status: 'delivered', attempts: 3 }]);
    const other = uniquePhone();
    fake.failNext(1, 503);
    await register(other);
    await gateway.idle();
    expect(await messages(other)).toMatchObject([{ status: 'delivered', attempts: 2 }]);
  });

  it("retries the gateway's own 'busy' answer, and fails a refused text at once", async () => {
    const busy = uniquePhone();
    fake.refuseNext(gatewayCase.busy);
    await register(busy);
    await gateway.idle();
    expect(await messages(busy)).toMatchObject([{ status: 'delivered', attempts: 2 }]);
    const refused = uniquePhone();
    fake.refuseNext(gatewayCase.refused);
    await register(refused);
    await gateway.idle();
    const [row] = await messages(refused);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(String(row!.provider_status)).toContain(String(gatewayCase.refused));
  });

  it('records an undeliverable text as failed, and gives up after the last attempt', async () => {
    fake.setDeliveryStatus(gatewayCase.undeliverable);
    const phone = uniquePhone();
    await register(phone);
    await gateway.idle();
    expect(await messages(phone)).toMatchObject([
      { status: 'failed', provider_status: `${gatewayCase.name}:${gatewayCase.undeliverable}` },
    ]);
    const down = uniquePhone();
    fake.failNext(4, 'drop');
    await register(down);
    await gateway.idle();
    expect(await messages(down)).toMatchObject([{ status: 'failed', attempts: 4 }]);
  });

  it('answers the registration before the gateway does (the same time whether or not a text goes out)', async () => {
    fake.setDeliveryStatus(gatewayCase.delivered);
    fake.failNext(3, 'drop');
    const phone = uniquePhone();
    const started = Date.now();
    expect((await register(phone)).statusCode).toBe(200);
    const answered = Date.now() - started;
    await gateway.idle();
    expect(await messages(phone)).toMatchObject([{ status: 'delivered', attempts: 4 }]);
    // Three backoffs (5, 10, 20 ms) happened after the answer.
    expect(answered).toBeLessThan(1000);
  });
});

describe('gateway status codes', () => {
  it('maps SMS.ru codes: 103 and 110 delivered, 104-108 and 150 failed, 100-102 on the way', () => {
    expect(smsRuDeliveryStatus(103)).toMatchObject({ kind: 'final', status: 'delivered' });
    expect(smsRuDeliveryStatus(110)).toMatchObject({ kind: 'final', status: 'delivered' });
    for (const code of [104, 105, 106, 107, 108, 150])
      expect(smsRuDeliveryStatus(code)).toMatchObject({ kind: 'final', status: 'failed' });
    for (const code of [100, 101, 102, undefined]) expect(smsRuDeliveryStatus(code).kind).toBe('pending');
  });
  it('maps SMSC codes: 1 and 2 delivered, 3 and 20-25 failed, -1 and 0 on the way', () => {
    expect(smscDeliveryStatus(1)).toMatchObject({ kind: 'final', status: 'delivered' });
    expect(smscDeliveryStatus(2)).toMatchObject({ kind: 'final', status: 'delivered' });
    for (const code of [3, 20, 22, 23, 24, 25])
      expect(smscDeliveryStatus(code)).toMatchObject({ kind: 'final', status: 'failed' });
    for (const code of [-1, 0, undefined]) expect(smscDeliveryStatus(code).kind).toBe('pending');
  });
});
