/**
 * The outside test's findings that are not about sign-up (those are in auth.test.ts), each proven
 * on this database: client addresses behind proxies (5), dates outside a sane range (6), and the
 * smaller ones (8): opaque notification ids and cursors, 431 in the error shape, form bodies refused
 * on token calls.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { OpaqueIds } from '../src/http/opaque-id.ts';
import { registeredUser } from './auth-helpers.ts';
import { fundPhone } from './fund.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer, uniquePhone } from './helpers.ts';

describe(`findings of the outside test (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', SMS_PER_ADDRESS_PER_HOUR: '2' } });
  });
  afterAll(() => server.close());

  describe('5: the client address behind proxies', () => {
    it('TRUST_PROXY takes a hop count or proxy addresses; true (the client-chosen entry) is refused', () => {
      expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).TRUST_PROXY).toEqual([
        '10.0.0.1',
        '10.1.0.0/16',
        '::1',
      ]);
      expect(loadConfig({}).TRUST_PROXY).toBe(false);
      expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/^Invalid setting TRUST_PROXY: /);
    });

    it('with one trusted hop, a client-written left-most X-Forwarded-For entry does not escape the per-address cap', async () => {
      const send = (spoofed: string) =>
        server.call('POST', '/v2/wallet/auth/send_code', {
          body: { phone: uniquePhone() },
          headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.77` },
        });
      expect((await send('1.1.1.1')).status).toBe(200);
      expect((await send('2.2.2.2')).status).toBe(200);
      const third = await send('3.3.3.3');
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('SMS_LIMIT_ADDRESS');
    });

    it('with a list, only the listed proxy is believed: a request straight from a client is its own address', async () => {
      const app = await buildApp(
        { ...server.ctx, config: { ...server.ctx.config, TRUST_PROXY: ['10.9.9.9'] } },
        { logger: false },
      );
      app.get('/__ip', async (request) => ({ ip: request.ip }));
      await app.ready();
      try {
        const direct = await app.inject({
          url: '/__ip',
          headers: { 'x-forwarded-for': '6.6.6.6' },
          remoteAddress: '198.51.100.5',
        });
        expect(JSON.parse(direct.body).ip).toBe('198.51.100.5');
        const proxied = await app.inject({
          url: '/__ip',
          headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.9' },
          remoteAddress: '10.9.9.9',
        });
        expect(JSON.parse(proxied.body).ip).toBe('198.51.100.9');
      } finally {
        await app.close();
      }
    });
  });

  describe('6: dates outside a sane range', () => {
    it('history and statistics answer 400 in the error shape for year 0, year 9999 and the like', async () => {
      const { token } = await registeredUser(server, { headers: { 'x-forwarded-for': '198.18.0.1' } });
      const queries = [
        'date_to=9999-12-31',
        'date_from=0000-01-01',
        'date_from=1969-12-31',
        'date_to=2200-01-01',
        'date_from=0001-01-01T00:00:00Z',
        'date_to=9999-12-31T23:59:59.999Z',
        'date_from=%2B275760-09-13T00:00:00Z',
      ];
      for (const path of ['/v2/wallet/transaction', '/v2/wallet/stat']) {
        for (const query of queries) {
          const res = await server.call('GET', `${path}?${query}`, { token });
          expect(res.status, `${path}?${query}`).toBe(400);
          expect(isErrorShape(res.body)).toBe(true);
          expect(res.body.code).toBe('FIELD_INVALID');
        }
        // The edges of the range are fine.
        const ok = await server.call('GET', `${path}?date_from=1970-01-01&date_to=2199-12-31`, { token });
        expect(ok.status, path).toBe(200);
      }
    });
  });

  describe('8: smaller findings', () => {
    it('money notification ids and history cursors are opaque: no order, no count, no forging', async () => {
      const { phone, token } = await registeredUser(server, { headers: { 'x-forwarded-for': '198.18.0.2' } });
      for (let i = 0; i < 3; i++) {
        server.clock.advance(1000);
        await fundPhone(server.ctx, phone, 100n + BigInt(i));
      }
      const list = await server.call('GET', '/v2/wallet/user/notification?limit=2', { token });
      const ids: string[] = list.body.results.map((n: { id: string }) => n.id);
      const { rows } = await server.ctx.db.query<{ id: string }>(
        'SELECT e.id::text AS id FROM ledger_entries e JOIN users u ON u.id = e.user_id WHERE u.phone = $1',
        [phone],
      );
      for (const id of ids) {
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        // Not the old layout (zeros then the entry id in hex), and no entry id in any form.
        expect(id.startsWith('00000000-0000-8000')).toBe(false);
        for (const row of rows)
          expect(id.replaceAll('-', '')).not.toContain(BigInt(row.id).toString(16).padStart(6, '0'));
      }
      // Two neighbouring entries' ids share nothing that sorts.
      expect(ids[0]!.slice(0, 8)).not.toBe(ids[1]!.slice(0, 8));
      // Marking read still works by the opaque id, and a made-up id is NOT_FOUND.
      expect(
        (await server.call('POST', '/v2/wallet/user/notification/read', { token, body: { ids: [ids[0]] } }))
          .status,
      ).toBe(200);
      const forged = await server.call('POST', '/v2/wallet/user/notification/read', {
        token,
        body: { ids: ['00000000-0000-8000-8000-000000000001'] },
      });
      expect(forged.body.code).toBe('NOTIFICATION_NOT_FOUND');

      // Cursors: sealed; the next page follows; an edited cursor or another server's is refused.
      const next: string = list.body.next;
      expect(Buffer.from(next, 'base64url').toString('latin1')).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      const page2 = await server.call('GET', `/v2/wallet/user/notification?limit=2&cursor=${next}`, {
        token,
      });
      expect(page2.status).toBe(200);
      expect(page2.body.results.map((n: { id: string }) => n.id)).not.toContain(ids[0]);
      const history = await server.call('GET', '/v2/wallet/transaction?limit=1', { token });
      const other = new OpaqueIds('another server key of 32 characters!').sealCursor([
        new Date().toISOString(),
        ids[0]!,
      ]);
      const edited = `${next.slice(0, -2)}${next.endsWith('AA') ? 'BB' : 'AA'}`;
      const oldStyle = Buffer.from(
        `${new Date().toISOString()}|00000000-0000-8000-8000-000000000001`,
      ).toString('base64url');
      for (const cursor of [edited, other, oldStyle]) {
        for (const path of ['/v2/wallet/user/notification', '/v2/wallet/transaction']) {
          const res = await server.call('GET', `${path}?cursor=${cursor}`, { token });
          expect(res.status, `${path} ${cursor}`).toBe(400);
          expect(res.body.code).toBe('FIELD_INVALID');
        }
      }
      expect(
        (await server.call('GET', `/v2/wallet/transaction?limit=1&cursor=${history.body.next}`, { token }))
          .status,
      ).toBe(200);
    });

    it('refuses form-encoded and text bodies on token calls before reading them, with the error shape', async () => {
      const { token } = await registeredUser(server, { headers: { 'x-forwarded-for': '198.18.0.3' } });
      for (const [url, type, payload] of [
        [
          '/v2/wallet/transfer',
          'application/x-www-form-urlencoded',
          'phone=%2B79990000000&amount=1&pin=1234',
        ],
        ['/v2/wallet/account', 'application/x-www-form-urlencoded', 'currency_code=USD'],
        ['/v2/wallet/auth/pin/verify', 'text/plain', '{"pin":"1234"}'],
        ['/v2/wallet/user/notification/read', 'multipart/form-data; boundary=x', '--x--'],
      ] as const) {
        const res = await server.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Token ${token}`, 'content-type': type },
          payload,
        });
        expect(res.statusCode, url).toBe(415);
        expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      // JSON with a charset is fine.
      const ok = await server.app.inject({
        method: 'POST',
        url: '/v2/wallet/user/notification/read',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json; charset=utf-8' },
        payload: '{}',
      });
      expect(ok.statusCode).toBe(200);
    });

    it('answers headers over 16 KiB with 431 in the error shape (a real socket: the parser refuses them)', async () => {
      const app = await buildApp(server.ctx, { logger: false });
      await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const { port } = app.server.address() as { port: number };
        const raw = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let data = '';
          socket.on('data', (chunk) => {
            data += chunk.toString();
          });
          socket.on('end', () => resolve(data));
          socket.on('error', reject);
          socket.write(`GET /v2/wallet HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        });
        expect(raw).toMatch(/^HTTP\/1\.1 431 /);
        const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
        expect(body).toEqual({
          status: 'error',
          code: 'HEADERS_TOO_LARGE',
          message: 'Слишком большие заголовки запроса',
        });
      } finally {
        await app.close();
      }
    });
  });
});
