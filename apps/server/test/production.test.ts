/**
 * A production start (WALLET_ENV=production, a real server process) against local fakes of the
 * providers' HTTP APIs: SMS.ru for texts, YooKassa for payments and payouts, and operator review
 * for identification. End to end: register (the code arrives through the gateway's fake), sign in,
 * send documents, wait for an operator, and the ops command approves. Also what production refuses:
 * the published development keys, keys under 32 characters, /sandbox and /docs.
 * PostgreSQL only: production requires DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedVapidKeys } from '../src/config.ts';
import { TERMS_VERSION } from '../src/modules/terms/service.ts';
import { call, freePort, freshDatabase, MAIN, type ServerProcess, startServer } from './chaos/process.ts';
import { type FakeCbr, startFakeCbr } from './fakes/cbr.ts';
import { type FakeGateway, startFakeSmsRu } from './fakes/sms-gateways.ts';
import { type FakeYooKassa, startFakeYooKassa } from './fakes/yookassa-payments.ts';

/** A production pair of its own, and the development pair every checkout derives (refused). */
const vapid = derivedVapidKeys('a production secret of this test only');
const devVapid = derivedVapidKeys('dev-only-pin-key-change-me-0001');
const OPS = fileURLToPath(new URL('../src/ops/main.ts', import.meta.url));
const hasPostgres = !!process.env.TEST_DATABASE_URL;

function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}

describe.skipIf(!hasPostgres)('a production start against the providers’ fakes (postgres)', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let sms: FakeGateway;
  let yookassa: FakeYooKassa;
  let cbr: FakeCbr;
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await freshDatabase('ewallet_prod');
    sms = await startFakeSmsRu('prod-api-id');
    yookassa = await startFakeYooKassa({ shopId: '123456', secretKey: 'test_secret_key_of_the_shop' });
    cbr = await startFakeCbr();
    env = {
      WALLET_ENV: 'production',
      // The back office on a free port: test files run side by side.
      OPS_PORT: '0',
      DATABASE_URL: database.url,
      PIN_KEY: 'production-pin-key-0123456789-abcdefghij',
      WEBHOOK_SECRET: 'production-webhook-secret-0123456789-abc',
      OPERATOR_LEGAL_NAME: 'ООО «Е-Кошелёк»',
      OPERATOR_LICENCE: '3500-К',
      OPERATOR_REGISTER_URL: 'https://www.cbr.ru/registries/nps/oper_zip/',
      SMS_PROVIDER: 'smsru',
      SMSRU_API_ID: 'prod-api-id',
      SMSRU_API_URL: sms.url,
      PAYMENTS_PROVIDER: 'yookassa',
      PAYOUTS_PROVIDER: 'yookassa',
      YOOKASSA_API_URL: `${yookassa.url}`,
      YOOKASSA_SHOP_ID: '123456',
      YOOKASSA_SECRET_KEY: 'test_secret_key_of_the_shop',
      KYC_PROVIDER: 'manual',
      RATES_PROVIDER: 'cbr',
      FRAUD_DB_PROVIDER: 'file',
      FRAUD_DB_FILE: '/var/lib/e-wallet/fraud-db.csv',
      CBR_URL: cbr.url,
      DOCUMENTS_KEY: 'production-documents-key-0123456789-abcd',
      TRUST_PROXY: '1',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    };
    server = await startServer({ databaseUrl: database.url, env });
  }, 60_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await sms?.close();
    await yookassa?.close();
    await cbr?.close();
    await database?.drop();
  });

  /** The newest text the gateway's fake received for a phone (waits for the background send). */
  async function textTo(phone: string, count: number): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const texts = sms.texts.filter((t) => t.phone === phone.slice(1));
      if (texts.length >= count) return texts.at(-1)!.text;
      if (Date.now() > deadline) throw new Error(`no text to ${phone}: ${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('registers, signs in by a code through the gateway, and identification waits for an operator', async () => {
    const phone = `+7977${String(process.pid % 10_000).padStart(4, '0')}123`;
    const person = {
      first_name: 'Анна',
      last_name: 'Смирнова',
      email: 'anna@example.com',
      phone,
      terms_version: TERMS_VERSION,
    };
    expect((await call(server.base, 'POST', '/v2/wallet/auth/register', { body: person })).status).toBe(200);
    const code = /\d{4}/.exec(await textTo(phone, 1))![0];
    const confirmed = await call(server.base, 'POST', '/v2/wallet/auth/register/phone/confirm', {
      body: { phone, confirm_code: code },
    });
    expect(confirmed.status).toBe(200);
    const first = confirmed.body.auth_token as string;
    expect((await call(server.base, 'POST', '/v2/wallet/auth/logout', { token: first })).status).toBe(200);

    // Sign in again: a new code through the gateway.
    expect((await call(server.base, 'POST', '/v2/wallet/auth/send_code', { body: { phone } })).status).toBe(
      200,
    );
    const loginCode = /\d{4}/.exec(await textTo(phone, 2))![0];
    const login = await call(server.base, 'POST', '/v2/wallet/auth/login', {
      body: { phone, confirm_code: loginCode },
    });
    expect(login.status).toBe(200);
    const token = login.body.auth_token as string;

    const upgrade = await call(server.base, 'POST', '/v2/wallet/identification-level/upgrade', { token });
    expect(upgrade.status).toBe(200);
    const applicationId = String(upgrade.body.verification_url).split('=').at(-1)!;
    const sent = await call(server.base, 'POST', '/v2/wallet/identification-level/documents', {
      token,
      body: {
        application_id: applicationId,
        document_type: 'snils',
        document_number: '112-233-445 95',
        full_name: 'Смирнова Анна Петровна',
        birth_date: '1991-02-03',
      },
    });
    expect(sent.body.active_identification.status).toBe('in_review');

    const listed = await runNode(OPS, ['identification-list'], env);
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toContain(applicationId);
    const approved = await runNode(OPS, ['identification-approve', applicationId], env);
    expect(approved.code, approved.out).toBe(0);
    const status = await call(server.base, 'POST', '/v2/wallet/identification-level/status', { token });
    expect(status.body.identification_level.name).toBe('simplified');

    // The delivery status of both texts is kept, without their text.
    const requests = sms.requests.filter((r) => r.path === '/sms/send');
    expect(requests.every((r) => r.form.api_id === 'prod-api-id' && r.form.json === '1')).toBe(true);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT provider, kind, status, provider_message_id FROM sms_messages WHERE phone = $1 ORDER BY created_at',
        [phone],
      );
      expect(rows).toMatchObject([
        { provider: 'smsru', kind: 'code', status: 'sent', provider_message_id: expect.any(String) },
        { provider: 'smsru', kind: 'code', status: 'sent', provider_message_id: expect.any(String) },
      ]);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('takes the same time to refuse a sign-in code for a known and an unknown phone', async () => {
    // The phone registered above (no code pending) against a number without a wallet, interleaved.
    const known = `+7977${String(process.pid % 10_000).padStart(4, '0')}123`;
    const unknown = `+7977${String(process.pid % 10_000).padStart(4, '0')}456`;
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 40; i++) {
      for (const [label, phone] of [
        ['known', known],
        ['unknown', unknown],
      ] as const) {
        const started = performance.now();
        const answer = await call(server.base, 'POST', '/v2/wallet/auth/login', {
          body: { phone, confirm_code: '0000' },
        });
        times[label].push(performance.now() - started);
        expect(answer.body.code).toBe('CODE_INVALID');
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const [a, b] = [median(times.known), median(times.unknown)];
    console.info(
      `sign-in timing (production process): median known ${a.toFixed(2)} ms, unknown ${b.toFixed(2)} ms`,
    );
    expect(Math.abs(a - b)).toBeLessThan(Math.max(3, 0.3 * Math.max(a, b)));
  }, 60_000);

  it('has no /sandbox and no /docs, and sends HSTS', async () => {
    for (const path of [
      '/sandbox/sms?phone=%2B79990000000',
      '/sandbox/pay/00000000-0000-0000-0000-000000000000',
      '/docs',
      '/docs/json',
    ]) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    }
    const res = await fetch(`${server.base}/healthz`);
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });

  it('refuses to start with the published development keys or keys under 32 characters, naming the setting', async () => {
    const port = String(await freePort());
    const cases: Array<[Record<string, string>, string]> = [
      [{ PIN_KEY: 'dev-only-pin-key-change-me-0001' }, 'PIN_KEY'],
      [{ WEBHOOK_SECRET: 'dev-only-webhook-secret-0001' }, 'WEBHOOK_SECRET'],
      [{ PIN_KEY: 'short-but-16-chars-or-more' }, 'PIN_KEY'],
      [{ WEBHOOK_SECRET: 'x'.repeat(31) }, 'WEBHOOK_SECRET'],
      [{ DOCUMENTS_KEY: 'y'.repeat(20) }, 'DOCUMENTS_KEY'],
      [{ SMS_PROVIDER: 'sandbox' }, 'SMS_PROVIDER'],
      [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
      [{ VAPID_PRIVATE_KEY: devVapid.privateKey, VAPID_PUBLIC_KEY: devVapid.publicKey }, 'VAPID_PRIVATE_KEY'],
      [{ VAPID_PRIVATE_KEY: '' }, 'VAPID_PRIVATE_KEY'],
    ];
    for (const [change, name] of cases) {
      const started = await runNode(MAIN, [], {
        ...env,
        ...change,
        PORT: port,
        HOST: '127.0.0.1',
        WEB_DIST: '',
      });
      expect(started.code, started.out).toBe(1);
      const lines = started.out.trim().split('\n');
      expect(lines, started.out).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Invalid setting ${name}: `));
    }
  }, 120_000);
});
