/**
 * Hardening, third round (docs/decisions/security-rules.md#hardening-third-round), each class with its
 * siblings, on the database TEST_DB names: production's secrets, control characters and dates in every call,
 * Web
 * Push's outbound requests, recovery steps ending sessions, the API's paths never served the app's
 * page, names printed safely, and sign-in's guard by client address.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountChecksumOk, displayText, opsCalls, parseQr } from '@e-wallet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, derivedVapidKeys, loadConfig, publishedSettingValues } from '../src/config.ts';
import { isPublicAddress, OutboundRefused, outboundRequest } from '../src/http/outbound.ts';
import { operatorUnfreeze } from '../src/modules/freeze/service.ts';
import { runOps } from '../src/ops/cli.ts';
import { lastCode, ownCode, registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer, uniquePhone } from './helpers.ts';
import { key, PIN, person } from './withdrawal-helpers.ts';

const ROOT = new URL('../../../', import.meta.url);

describe('production refuses secrets anyone could know', () => {
  const vapid = derivedVapidKeys('a production secret of this test only');
  const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const production = (change: Record<string, string> = {}) =>
    loadConfig({
      WALLET_ENV: 'production',
      DATABASE_URL: 'postgres://wallet@10.0.0.10:6432/wallet',
      PIN_KEY: random(),
      WEBHOOK_SECRET: random(),
      SMS_PROVIDER: 'smsru',
      SMSRU_API_ID: random(),
      PAYMENTS_PROVIDER: 'yookassa',
      PAYOUTS_PROVIDER: 'yookassa',
      YOOKASSA_SHOP_ID: '123456',
      YOOKASSA_SECRET_KEY: random(),
      KYC_PROVIDER: 'manual',
      DOCUMENTS_KEY: random(),
      RATES_PROVIDER: 'cbr',
      FRAUD_DB_PROVIDER: 'file',
      FRAUD_DB_FILE: '/var/lib/e-wallet/fraud-db.csv',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      OPERATOR_LEGAL_NAME: 'ООО «Е-Кошелёк»',
      OPERATOR_LICENCE: '3500-К',
      OPERATOR_REGISTER_URL: 'https://www.cbr.ru/registries/nps/oper_zip/',
      ...change,
    });
  const SECRETS = [
    'PIN_KEY',
    'WEBHOOK_SECRET',
    'RECEIPT_KEY',
    'OPS_KEY',
    'DOCUMENTS_KEY',
    'PAYOUTS_KEY',
    'YOOKASSA_SECRET_KEY',
  ];

  it('starts with random secrets of its own; push services are the known ones by default', () => {
    expect(production().production).toBe(true);
    // The fraud database's sandbox lists only test recipients
    // (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
    expect(() => production({ FRAUD_DB_PROVIDER: 'sandbox' })).toThrow(
      /FRAUD_DB_PROVIDER: sandbox providers/,
    );
    expect(() => production({ FRAUD_DB_FILE: '' })).toThrow(/FRAUD_DB_FILE: required/);
    expect(production().PUSH_SERVICE_HOSTS).toEqual([
      'fcm.googleapis.com',
      '.push.services.mozilla.com',
      '.push.apple.com',
      '.notify.windows.com',
    ]);
  });

  it("refuses every value of the repository's example files for every secret, naming the setting", () => {
    // Read here from the files themselves, as the server reads them at start.
    const folder = new URL('deploy/', ROOT);
    const examples = readdirSync(folder).filter((name) => name.endsWith('.example'));
    expect(examples.length).toBeGreaterThan(0);
    const values = new Set<string>();
    for (const name of examples)
      for (const line of readFileSync(new URL(name, folder), 'utf8').split('\n')) {
        const value = /^\s*[A-Z][A-Z0-9_]*\s*=\s*(.+?)\s*$/.exec(line)?.[1];
        if (value) values.add(value);
      }
    expect(values).toContain('CHANGE_ME_AT_LEAST_16_CHARACTERS');
    expect(new Set(publishedSettingValues())).toEqual(values);
    for (const value of values)
      for (const name of SECRETS)
        expect(() => production({ [name]: value }), `${name}=${value}`).toThrow(
          new RegExp(`^Invalid setting ${name}: `),
        );
  });

  it('refuses placeholders, one value for two secrets, predictable keys, and the test-only push setting', () => {
    const shared = random();
    const cases: Array<[Record<string, string>, string]> = [
      [{ PIN_KEY: 'change-me-please-0123456789-abcdefghij' }, 'PIN_KEY'],
      [{ WEBHOOK_SECRET: '<your webhook secret goes here, 32+ chars>' }, 'WEBHOOK_SECRET'],
      [{ YOOKASSA_SECRET_KEY: 'CHANGE_ME' }, 'YOOKASSA_SECRET_KEY'],
      [{ PIN_KEY: shared, WEBHOOK_SECRET: shared }, 'WEBHOOK_SECRET'],
      [{ PIN_KEY: shared, DOCUMENTS_KEY: shared }, 'DOCUMENTS_KEY'],
      [{ PIN_KEY: shared, PAYOUTS_KEY: shared }, 'PAYOUTS_KEY'],
      [{ PAYOUTS_KEY: 'b'.repeat(40) }, 'PAYOUTS_KEY'],
      [{ PIN_KEY: 'a'.repeat(40) }, 'PIN_KEY'],
      [{ WEBHOOK_SECRET: 'abcdefgh'.repeat(5) }, 'WEBHOOK_SECRET'],
      [{ RECEIPT_KEY: '0123456789012345678901234567890123456789' }, 'RECEIPT_KEY'],
      [{ OPS_KEY: 'passwordpasswordpasswordpassword' }, 'OPS_KEY'],
      [{ PUSH_TEST_SERVICE: 'on' }, 'PUSH_TEST_SERVICE'],
    ];
    for (const [change, name] of cases)
      expect(() => production(change), JSON.stringify(change)).toThrow(
        new RegExp(`^Invalid setting ${name}: `),
      );
    expect(() => production({ PIN_KEY: 'a'.repeat(40) })).toThrow(ConfigError);
  });

  it('refuses the antifraud signs switched off, a test-only setting (issue 53, finding 8)', () => {
    expect(() => production({ ANTIFRAUD_SIGNS: 'off' })).toThrow(
      /^Invalid setting ANTIFRAUD_SIGNS: a test-only setting, refused in production$/,
    );
    expect(production({ ANTIFRAUD_SIGNS: 'on' }).production).toBe(true);
  });
});

describe('the contract refuses control characters in every call and bounds every date', () => {
  it("covers the back office's calls too (the operators' user search)", () => {
    expect(opsCalls.users.query.safeParse({ query: 'ива\u0000н' }).success).toBe(false);
    expect(opsCalls.users.query.safeParse({ query: 'иван' }).success).toBe(true);
  });

  it('prints names without controls or direction overrides', () => {
    expect(displayText('ООО «Кит»\u202Eexe.gnp\u200B')).toBe('ООО «Кит» exe.gnp');
    expect(displayText('Evil\u001b[31m\nName\u2067x\u2069')).toBe('Evil [31m Name x');
    const payee = parseQr(
      `ST00012|Name=Shop\u202Egnp.exe|PersonalAcc=${ACC}|BankName=Банк\u200F|BIC=${BIC}|CorrespAcc=${CORR}`,
    );
    expect(payee).toMatchObject({ kind: 'gost', name: 'Shop gnp.exe', bankName: 'Банк' });
  });
});

// Sberbank's published requisites, the account with a valid control key (as qr-payment.test.ts).
const BIC = '044525225';
const CORR = '30101810400000000225';
const ACC = (() => {
  const account = '40702810000000012345';
  for (let d = 0; d <= 9; d++) {
    const candidate = `${account.slice(0, 8)}${d}${account.slice(9)}`;
    if (accountChecksumOk(BIC, candidate)) return candidate;
  }
  throw new Error('no control key');
})();

describe(`hardening through the API (${databaseLabel})`, () => {
  let server: TestServer;
  let web: string;
  beforeAll(async () => {
    web = await mkdtemp(join(tmpdir(), 'hardening-web-'));
    await writeFile(join(web, 'index.html'), '<!doctype html><title>app</title>');
    // push.invalid: a push service host that never resolves, so no push leaves this machine.
    server = await startTestServer({
      env: {
        WEB_DIST: web,
        TRUST_PROXY: '1',
        PUSH_SERVICE_HOSTS: 'push.invalid',
        CODE_CHECKS_PER_ADDRESS_PER_HOUR: '20',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(web, { recursive: true, force: true });
  });

  const expectFieldInvalid = (answer: { status: number; body: any }, what: string) => {
    expect(answer.status, what).toBe(400);
    expect(answer.body, what).toMatchObject({ status: 'error', code: 'FIELD_INVALID' });
    expect(answer.body.message, what).toMatch(/[А-Яа-я]/);
  };

  it('a NUL or another control character is a 400 in the contract’s shape wherever it arrives', async () => {
    const ivan = await person(server, { rub: 100_000n });
    const before = await server.ctx.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM payment_requests) + (SELECT count(*) FROM payment_templates)
         + (SELECT count(*) FROM push_subscriptions) + (SELECT count(*) FROM operation_reports) AS n`,
    );
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/v2/wallet/request', { amount: '10', currency_code: 'RUB', comment: 'за\u0000обед' }],
      ['POST', '/v2/wallet/template', { name: 'Мама\u0000', phone: uniquePhone(), currency_code: 'RUB' }],
      ['POST', '/v2/wallet/template', { name: 'Мама\u001b[2J', phone: uniquePhone(), currency_code: 'RUB' }],
      [
        'POST',
        '/v2/wallet/payment/qr',
        { qr: `ST00012|Name=A\u0000B|PersonalAcc=${ACC}`, currency_code: 'RUB', pin: PIN },
      ],
      ['POST', '/v2/wallet/payment/qr/check', { qr: `ST00012|Name=A\nB|BIC=${BIC}`, currency_code: 'RUB' }],
      [
        'POST',
        '/v2/wallet/push/subscription',
        { endpoint: 'https://fcm.googleapis.com/\u0000', keys: { p256dh: 'AA', auth: 'AA' }, pin: PIN },
      ],
      ['POST', `/v2/wallet/transaction/${crypto.randomUUID()}/report`, { reason: 'не я\u0085' }],
      [
        'GET',
        `/v2/wallet/statement?account=${crypto.randomUUID()}&date_from=2026-01-01%00&date_to=2026-01-02&format=pdf`,
        undefined,
      ],
    ];
    for (const [method, url, body] of calls) {
      const answer = await server.call(method as 'GET' | 'POST', url, {
        token: ivan.token,
        ...(body === undefined ? {} : { body }),
        headers: { 'idempotency-key': key() },
      });
      expectFieldInvalid(answer, `${method} ${url}`);
    }
    const after = await server.ctx.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM payment_requests) + (SELECT count(*) FROM payment_templates)
         + (SELECT count(*) FROM push_subscriptions) + (SELECT count(*) FROM operation_reports) AS n`,
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('every date a call names is bounded: year 0 and 9999 are 400, never a 500', async () => {
    const ivan = await person(server, { rub: 100_000n });
    const account = (await server.call('GET', '/v2/wallet', { token: ivan.token })).body.results[0]
      .accounts[0].id;
    for (const [from, to] of [
      ['0000-01-01', '2026-01-01'],
      ['2026-01-01', '9999-12-31'],
      ['1969-12-31', '2026-01-01'],
    ]) {
      const statement = await server.call(
        'GET',
        `/v2/wallet/statement?account=${account}&date_from=${from}&date_to=${to}&format=csv`,
        { token: ivan.token },
      );
      expectFieldInvalid(statement, `${from}..${to}`);
    }
    for (const first of ['0000-01-01T00:00:00Z', '9999-01-01T00:00:00Z']) {
      const schedule = await server.call('POST', '/v2/wallet/schedule', {
        token: ivan.token,
        body: {
          phone: uniquePhone(),
          amount: '10',
          currency_code: 'RUB',
          period: 'month',
          first_run_at: first,
          pin: PIN,
        },
      });
      expectFieldInvalid(schedule, first);
    }
  });

  it('Web Push goes only to known push services at public addresses; an endpoint is one person’s', async () => {
    const owner = await person(server);
    const thief = await person(server);
    const keys = { p256dh: derivedVapidKeys('a browser').publicKey, auth: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const subscribe = (who: { token: string }, endpoint: string, pin = PIN) =>
      server.call('POST', '/v2/wallet/push/subscription', {
        token: who.token,
        body: { endpoint, keys, pin },
      });
    for (const endpoint of [
      'http://127.0.0.1:9/push',
      'https://127.0.0.1/push',
      'https://localhost/push',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/push',
      'https://[fd00::1]/push',
      'https://10.1.2.3/push',
      'https://192.168.0.1/push',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://evil.example.com/push',
      'https://fcm.googleapis.com/fcm/send/x',
      'https://push.invalid.evil.example.com/push',
    ]) {
      const refused = await subscribe(owner, endpoint);
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body.code, endpoint).toBe('PUSH_SUBSCRIPTION_INVALID');
    }
    const endpoint = `https://push.invalid/send/${crypto.randomUUID()}`;
    expect((await subscribe(owner, endpoint, '9999')).body.code).toBe('PIN_INVALID');
    expect((await subscribe(owner, endpoint)).status).toBe(200);
    // Another person posting it does not move it to them.
    const moved = await subscribe(thief, endpoint);
    expect([moved.status, moved.body.code]).toEqual([400, 'PUSH_SUBSCRIPTION_INVALID']);
    const { rows } = await server.ctx.db.query<{ user_id: string }>(
      'SELECT user_id FROM push_subscriptions WHERE endpoint = $1',
      [endpoint],
    );
    expect(rows).toEqual([{ user_id: owner.userId }]);
    // Switching security alerts off needs the PIN; on does not.
    const off = (body: Record<string, unknown>) =>
      server.call('POST', '/v2/wallet/notification/settings', { token: owner.token, body });
    expect((await off({ push_security: false })).body.code).toBe('FIELD_REQUIRED');
    expect((await off({ push_security: false, pin: '9999' })).body.code).toBe('PIN_INVALID');
    expect((await off({ push_security: false, pin: PIN })).body).toMatchObject({ push_security: false });
    expect((await off({ push_security: true })).body).toMatchObject({ push_security: true });
    const changes = await server.ctx.db.query<{ kind: string }>(
      'SELECT kind FROM security_changes WHERE user_id = $1 ORDER BY id',
      [owner.userId],
    );
    expect(changes.rows.map((r) => r.kind)).toEqual(['push_added', 'alerts_reduced']);
  });

  it('the sender follows no redirect and reaches no private address, however it is named', async () => {
    expect(['8.8.8.8', '2a00:1450:4001::1'].map(isPublicAddress)).toEqual([true, true]);
    expect(
      [
        '127.0.0.1',
        '10.0.0.1',
        '172.16.0.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '::1',
        'fe80::1',
        'fd00::1',
        '::ffff:127.0.0.1',
        '224.0.0.1',
      ].map(isPublicAddress),
    ).toEqual(Array(12).fill(false));
    let hits = 0;
    const target = createServer((_request, response) => {
      hits += 1;
      response.end('ok');
    });
    const redirecting = createServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` });
      response.end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const request = { method: 'POST', headers: {}, timeoutMs: 2000 };
      const local = { hosts: [], localTestService: true };
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/push`;
      expect(await outboundRequest(url, request, local)).toBe(302);
      expect(hits).toBe(0);
      // Without the test-only setting: a name that resolves to loopback is refused when connecting.
      const open = { hosts: [], localTestService: false };
      await expect(outboundRequest(url, request, open)).rejects.toBeInstanceOf(OutboundRefused);
      await expect(
        outboundRequest(`https://localhost:${(target.address() as AddressInfo).port}/`, request, open),
      ).rejects.toBeInstanceOf(OutboundRefused);
      expect(hits).toBe(0);
    } finally {
      target.close();
      redirecting.close();
    }
  });

  it('unfreezing, an operator’s unfreeze and support’s code unlock end every other session', async () => {
    const owner = await registeredUser(server, { pin: PIN });
    const signIn = async () => {
      const headers = { 'x-forwarded-for': '203.0.113.7' };
      await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: owner.phone }, headers });
      const answer = await server.call('POST', '/v2/wallet/auth/login', {
        body: { phone: owner.phone, confirm_code: await lastCode(server, owner.phone) },
        headers,
      });
      return answer.body.auth_token as string;
    };
    const alive = async (token: string) =>
      (await server.call('GET', '/v2/wallet/auth/info', { token })).status === 200;
    server.clock.advance(61_000);
    expect((await server.call('POST', '/v2/wallet/freeze', { token: owner.token, body: {} })).status).toBe(
      200,
    );
    // A session opened while frozen (a thief with the phone's code) does not outlive the unfreeze.
    server.clock.advance(61_000);
    const thief = await signIn();
    const unfrozen = await server.call('POST', '/v2/wallet/unfreeze', {
      token: owner.token,
      body: { confirm_code: await ownCode(server, owner, 'unfreeze'), pin: PIN },
    });
    expect(unfrozen.status, JSON.stringify(unfrozen.body)).toBe(200);
    expect(await alive(thief)).toBe(false);
    expect(await alive(owner.token)).toBe(true);

    server.clock.advance(61_000);
    const another = await signIn();
    const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
      owner.phone,
    ]);
    await server.ctx.db.tx(async (q) => {
      await q.query(`UPDATE users SET frozen_at = now(), frozen_by = 'operator' WHERE id = $1`, [
        rows[0]!.id,
      ]);
      await operatorUnfreeze(q, server.ctx, rows[0]!.id);
    });
    expect([await alive(another), await alive(owner.token)]).toEqual([false, false]);

    server.clock.advance(61_000);
    const last = await signIn();
    expect(await runOps(['codes-unlock', owner.phone], { ctx: server.ctx, print: () => {} })).toBe(0);
    expect(await alive(last)).toBe(false);
  });

  it('API paths never fall back to the app’s page', async () => {
    for (const path of [
      '/ops/v1/me',
      '/ops/',
      '/ops',
      '/OPS/v1/me',
      '//ops/v1',
      '/%6Fps/v1',
      '/v2/nothing',
      '/V2/x',
    ]) {
      const answer = await server.app.inject({ method: 'GET', url: path });
      expect(answer.statusCode, path).toBe(404);
      expect(answer.json(), path).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    }
    const page = await server.app.inject({ method: 'GET', url: '/settings' });
    expect([page.statusCode, page.body]).toEqual([200, '<!doctype html><title>app</title>']);
  });

  it('a payee’s name is printed without controls or overrides on the receipt and the verify page', async () => {
    const ivan = await person(server, { rub: 100_000n, level: 'full' });
    const paid = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: {
        qr: `ST00012|Name=Кит\u202Eexe.gnp|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}|Sum=1000`,
        currency_code: 'RUB',
        pin: PIN,
      },
      headers: { 'idempotency-key': key() },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // An older row written before the cleaning: escape, newline and an isolate in the stored name.
    await server.ctx.db.query('UPDATE payouts SET payee_name = $2 WHERE id = $1', [
      paid.body.receipt.id,
      'Кит\u001b[31m\nexe\u2067.gnp',
    ]);
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    const receipt = await server.call('GET', `/v2/wallet/transaction/${history.body.results[0].id}/receipt`, {
      token: ivan.token,
    });
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(200);
    expect(receipt.body.counterparty).toBe('Кит [31m exe .gnp');
    const verify = await server.app.inject({ method: 'GET', url: new URL(receipt.body.verify_url).pathname });
    expect(verify.statusCode).toBe(200);
    expect(verify.body.replace(/[\n\r\t]/g, '')).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    for (const text of history.body.results.map((r: { description: string }) => r.description))
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('sign-in is guarded by client address before any phone is touched, alike for known and unknown phones', async () => {
    const known = await registeredUser(server, { pin: PIN, headers: { 'x-forwarded-for': '198.51.100.1' } });
    const unknown = uniquePhone();
    const from = { 'x-forwarded-for': '198.51.100.77' };
    const wrong = (phone: string) =>
      server.call('POST', '/v2/wallet/auth/login', { body: { phone, confirm_code: '0000' }, headers: from });
    // An address checks at most CODE_CHECKS_PER_ADDRESS_PER_HOUR (20 here) codes an hour, whatever the phones.
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await wrong(i % 2 ? known.phone : unknown));
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body.code).toBe('CODE_INVALID');
    for (let i = 0; i < 12; i++) answers.push(await wrong(uniquePhone()));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBe(2);
    for (const answer of limited)
      expect(answer.body).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    const lockedOut = [await wrong(known.phone), await wrong(unknown)];
    expect(lockedOut[0]!.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(lockedOut[1]!.body).toEqual(lockedOut[0]!.body);
    // Nothing of the phone was touched: its owner's session lives and the owner signs in from elsewhere.
    expect((await server.call('GET', '/v2/wallet/auth/info', { token: known.token })).status).toBe(200);
    await server.call('POST', '/v2/wallet/auth/send_code', {
      body: { phone: known.phone },
      headers: { 'x-forwarded-for': '198.51.100.2' },
    });
    const owner = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: known.phone, confirm_code: await lastCode(server, known.phone) },
      headers: { 'x-forwarded-for': '198.51.100.2' },
    });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });
});
