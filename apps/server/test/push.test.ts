/**
 * Web Push and the security texts (docs/decisions/live-wallet.md#the-live-wallet), against a local push
 * service that checks the VAPID authorization's key and decrypts what it receives (aes128gcm, RFC 8291) with
 * the browser's keys made here: money in and out, a new sign-in and a PIN lock are pushed, in the
 * subscription's language; the person's settings hold back money in but never money out; an invalid
 * subscription is a 400; an endpoint the push service calls gone (410/404) is forgotten. A new-device
 * sign-in and a PIN lock send one SMS each, without a code.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { key, type Person, PIN, person } from './withdrawal-helpers.ts';

interface Received {
  path: string;
  message: { title: string; body: string; url: string; tag: string };
  vapidKey: string | undefined;
}

/** A push service on loopback: decrypts each message for the browser whose path it is sent to. */
async function startPushService() {
  const browsers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; answer: number }>();
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const browser = browsers.get(request.url ?? '');
      if (!browser) return response.writeHead(404).end();
      if (browser.answer !== 201) return response.writeHead(browser.answer).end();
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: browser.ecdh,
        authSecret: browser.auth.toString('base64url'),
      });
      const vapidKey = /k=([A-Za-z0-9_-]+)/.exec(String(request.headers.authorization))?.[1];
      received.push({ path: request.url!, message: JSON.parse(plain.toString('utf8')), vapidKey });
      response.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    /** A new browser's subscription, as PushManager.subscribe answers it. */
    browser(answer = 201) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomBytes(6).toString('hex')}`;
      browsers.set(path, { ecdh, auth, answer });
      return {
        path,
        subscription: {
          endpoint: `${base}${path}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
        gone: () => {
          browsers.get(path)!.answer = 410;
        },
      };
    },
    async waitFor(path: string, count: number, timeoutMs = 5000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mine = received.filter((r) => r.path === path);
        if (mine.length >= count || Date.now() > deadline) return mine;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(`web push and security texts (${databaseLabel})`, () => {
  let server: TestServer;
  let push: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    // The local push service is plain http on loopback: the test-only setting production refuses.
    server = await startTestServer({ env: { PUSH_TEST_SERVICE: 'on' } });
    push = await startPushService();
  });
  afterAll(async () => {
    await server.close();
    await push.close();
  });

  const send = (from: Person, to: Person, amount: string) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
      headers: { 'idempotency-key': key() },
    });

  it('answers the VAPID public key and refuses an invalid subscription with 400', async () => {
    const someone = await person(server);
    const answer = await server.call('GET', '/v2/wallet/push/key', { token: someone.token });
    expect(answer.status).toBe(200);
    expect(answer.body.public_key).toBe(server.config.VAPID_PUBLIC_KEY);
    expect(Buffer.from(answer.body.public_key, 'base64url')).toHaveLength(65);
    const good = push.browser().subscription;
    for (const bad of [
      { ...good, endpoint: 'not a url' },
      { ...good, endpoint: 'http://push.example.com/x' },
      { ...good, keys: { ...good.keys, auth: 'AAAA' } },
      { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 7).toString('base64url') } },
      { endpoint: good.endpoint },
    ]) {
      const refused = await server.call('POST', '/v2/wallet/push/subscription', {
        token: someone.token,
        body: bad,
      });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.status).toBe('error');
    }
    const { rows } = await server.ctx.db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [
      someone.userId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('pushes money in and out, decrypted by the push service, in the subscription’s language', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    const receiverBrowser = push.browser();
    const senderBrowser = push.browser();
    expect(
      (
        await server.call('POST', '/v2/wallet/push/subscription', {
          token: receiver.token,
          body: { ...receiverBrowser.subscription, pin: PIN },
          headers: { 'accept-language': 'en' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.call('POST', '/v2/wallet/push/subscription', {
          token: sender.token,
          body: { ...senderBrowser.subscription, pin: PIN },
        })
      ).status,
    ).toBe(200);
    const sent = await send(sender, receiver, '25.00');
    expect(sent.status).toBe(200);
    // Each new device first hears of itself (a security change), then the money.
    const incoming = (await push.waitFor(receiverBrowser.path, 2)).find(
      (r) => r.message.title === 'Money in',
    );
    // A click opens the operation itself, as the notice in the app does.
    expect(incoming?.message.url).toMatch(/^\/history\/[0-9a-f-]{36}$/);
    const opened = await server.call('GET', `/v2/wallet/transaction/${incoming!.message.url.split('/')[2]}`, {
      token: receiver.token,
    });
    expect(opened.status).toBe(200);
    expect(opened.body.amount).toBe('25.00');
    expect(incoming?.message.body).toContain('25.00');
    expect(incoming?.vapidKey).toBe(server.config.VAPID_PUBLIC_KEY);
    const outgoing = (await push.waitFor(senderBrowser.path, 2)).find((r) => r.message.title === 'Списание');
    expect(outgoing?.message).toMatchObject({ title: 'Списание', url: `/history/${sent.body.receipt.id}` });
    expect(outgoing?.message.body).toContain('25,00');

    // Money in switched off: nothing more for the receiver; money out cannot be switched off.
    const settings = await server.call('POST', '/v2/wallet/notification/settings', {
      token: receiver.token,
      body: { push_money_in: false },
    });
    expect(settings.body).toMatchObject({
      push_money_in: false,
      push_money_out: true,
      push_subscribed: true,
    });
    const refused = await server.call('POST', '/v2/wallet/notification/settings', {
      token: sender.token,
      body: { push_money_out: false },
    });
    expect(refused.status).toBe(400);
    expect((await send(sender, receiver, '5.00')).status).toBe(200);
    expect(await push.waitFor(senderBrowser.path, 3)).toHaveLength(3);
    expect(await push.waitFor(receiverBrowser.path, 3, 500)).toHaveLength(2);
  });

  it('forgets an endpoint the push service calls gone', async () => {
    const sender = await person(server, { rub: 100_000n });
    const receiver = await person(server);
    const browser = push.browser();
    await server.call('POST', '/v2/wallet/push/subscription', {
      token: receiver.token,
      body: { ...browser.subscription, pin: PIN },
    });
    // The new device's own alert first, then gone.
    await push.waitFor(browser.path, 1);
    browser.gone();
    expect((await send(sender, receiver, '1.00')).status).toBe(200);
    const deadline = Date.now() + 5000;
    let left = 1;
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await server.ctx.db.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [
        browser.subscription.endpoint,
      ]);
      left = rows.length;
    }
    expect(left).toBe(0);
    // And DELETE forgets one on the person's word.
    const other = push.browser();
    await server.call('POST', '/v2/wallet/push/subscription', {
      token: receiver.token,
      body: { ...other.subscription, pin: PIN },
    });
    const removed = await server.call('DELETE', '/v2/wallet/push/subscription', {
      token: receiver.token,
      body: { endpoint: other.subscription.endpoint },
    });
    expect(removed.status).toBe(200);
    expect(
      (await server.call('GET', '/v2/wallet/notification/settings', { token: receiver.token })).body,
    ).toMatchObject({ push_subscribed: false });
  });

  it('tells a new-device sign-in and a PIN lock by push and by one SMS each, never with a code', async () => {
    const owner = await person(server);
    const browser = push.browser();
    await server.call('POST', '/v2/wallet/push/subscription', {
      token: owner.token,
      body: { ...browser.subscription, pin: PIN },
    });
    // A new device for alerts is told at once: by SMS and by push (here to that very device).
    const [added] = await push.waitFor(browser.path, 1);
    expect(added?.message).toMatchObject({ title: 'Безопасность', url: '/settings' });
    expect(added?.message.body).toContain('новом устройстве');
    const outbox = async () =>
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(owner.phone)}`)).body.results as {
        text: string;
        code: string;
      }[];

    // A sign-in from another browser.
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: owner.phone } });
    const code = await lastCode(server, owner.phone);
    const before = (await outbox()).length;
    const signedIn = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: owner.phone, confirm_code: code },
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/140.0' },
    });
    expect(signedIn.status).toBe(200);
    const texts = await outbox();
    expect(texts.length).toBe(before + 1);
    expect(texts[0]!.code).toBe('');
    expect(texts[0]!.text).toContain('Firefox, Windows');
    expect(texts[0]!.text).not.toMatch(/\d{4}/);
    const signInPush = (await push.waitFor(browser.path, 2))[1];
    expect(signInPush?.message).toMatchObject({ title: 'Безопасность', url: '/settings' });

    // Five wrong PINs lock money operations: one text, one push.
    const wrong = async () =>
      server.call('POST', '/v2/wallet/auth/pin/verify', { token: owner.token, body: { pin: '9999' } });
    const afterSignIn = (await outbox()).length;
    let status = 0;
    for (let i = 0; i < 5; i++) status = (await wrong()).status;
    expect(status).toBe(423);
    const locked = await outbox();
    expect(locked.length).toBe(afterSignIn + 1);
    expect(locked[0]!.code).toBe('');
    expect(locked[0]!.text).toContain('PIN');
    // Locked already: more wrong PINs send nothing more.
    await wrong();
    expect((await outbox()).length).toBe(afterSignIn + 1);
    const pushes = await push.waitFor(browser.path, 3);
    expect(pushes[2]?.message.body).toMatch(/PIN/);
  });
});
