/**
 * Identification upgrades end to end through the API: upgrade, the sandbox provider's hosted page,
 * its signed webhooks, status refresh, auth info, and every transition of a verification.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_TTL_MS, REASON_EXPIRED } from '../src/modules/identification/service.ts';
import sandboxKycRoutes from '../src/modules/sandbox-kyc/routes.ts';
import type { KycProvider } from '../src/providers/kyc/kyc-provider.ts';
import { SandboxKycProvider } from '../src/providers/kyc/sandbox.ts';
import { SIGNATURE_HEADER, signPayload } from '../src/providers/signature.ts';
import { registeredUser } from './auth-helpers.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';

const UPGRADE = '/v2/wallet/identification-level/upgrade';
const STATUS = '/v2/wallet/identification-level/status';
const INFO = '/v2/wallet/auth/info';
const WEBHOOK = '/v2/wallet/webhooks/kyc';
const GOOD = {
  document_type: 'snils',
  document_number: '112-233-445 95',
  full_name: 'Петров Иван Сергеевич',
  birth_date: '1990-04-12',
};

describe(`identification (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function newUser(): Promise<{ token: string; userId: string }> {
    const { phone, token } = await registeredUser(server);
    const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
      phone,
    ]);
    return { token, userId: rows[0]!.id };
  }

  async function upgrade(token: string) {
    return server.call('POST', UPGRADE, { token });
  }

  /** Starts an upgrade and answers the provider's application id (the sandbox page's id). */
  async function started(token: string): Promise<{ appId: string; verificationId: string; url: string }> {
    const res = await upgrade(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url: string = res.body.verification_url;
    const appId = url.split('/').pop()!;
    return { appId, verificationId: res.body.active_identification.id, url };
  }

  async function submit(url: string, fields: Record<string, string>) {
    const response = await server.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    return response;
  }

  function webhookBody(appId: string, event: string, sequence: number, reason: string | null = null): string {
    return JSON.stringify({
      event,
      verification_id: appId,
      reason,
      sequence,
      occurred_at: server.clock.now().toISOString(),
    });
  }

  async function sendWebhook(
    raw: string,
    options: { secret?: string; at?: Date; header?: string | null; body?: string } = {},
  ) {
    const header =
      options.header === undefined
        ? signPayload(options.secret ?? server.config.WEBHOOK_SECRET, raw, options.at ?? server.clock.now())
        : options.header;
    return server.call('POST', WEBHOOK, {
      body: options.body ?? raw,
      headers: header === null ? {} : { [SIGNATURE_HEADER]: header },
    });
  }

  async function statusOf(token: string) {
    const res = await server.call('POST', STATUS, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  async function levelChanges(userId: string): Promise<number> {
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM identification_level_changes WHERE user_id = $1',
      [userId],
    );
    return rows[0]!.n;
  }

  async function verificationRows(userId: string) {
    const { rows } = await server.ctx.db.query(
      'SELECT id, status, reason, last_sequence, updated_at FROM verifications WHERE user_id = $1 ORDER BY seq',
      [userId],
    );
    return rows;
  }

  it('answers auth info of an anonymous user: no verification, top-up only, ask_for_next', async () => {
    const { token } = await newUser();
    const info = await server.call('GET', INFO, { token });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      identification_level: { name: 'anonymous', ask_for_next: true },
      active_identification: null,
      is_topup_allowed: true,
      is_withdrawal_allowed: false,
      is_transfer_allowed: false,
    });
    const status = await statusOf(token);
    expect(status).toEqual({
      status: 'success',
      identification_level: { name: 'anonymous', ask_for_next: true },
      active_identification: null,
    });
  });

  it('needs a token for upgrade and status', async () => {
    expect((await server.call('POST', UPGRADE)).body.code).toBe('INVALID_TOKEN');
    expect((await server.call('POST', STATUS)).status).toBe(401);
  });

  it('goes anonymous -> simplified -> full through the sandbox page, with flags per level', async () => {
    const { token, userId } = await newUser();

    // Upgrade: pending, a relative url of the sandbox page, and auth info shows it.
    const first = await upgrade(token);
    expect(first.status).toBe(200);
    expect(first.body.verification_url).toMatch(/^\/sandbox\/kyc\/[0-9a-f-]{36}$/);
    expect(first.body.active_identification).toMatchObject({
      status: 'pending',
      reason: null,
      target_level: 'simplified',
    });
    const info1 = await server.call('GET', INFO, { token });
    expect(info1.body.active_identification).toEqual(first.body.active_identification);

    // While it is active, another upgrade is refused.
    const again = await upgrade(token);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('VERIFICATION_ACTIVE');
    expect(isErrorShape(again.body)).toBe(true);

    // The hosted page: a plain form, no script, no inline style, its own stylesheet.
    const page = await server.app.inject({ method: 'GET', url: first.body.verification_url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`<form method="post" action="${first.body.verification_url}">`);
    expect(page.body).toContain('href="/sandbox/assets/sandbox.css"');
    expect(page.body).toMatch(/name="action" value="approve"/);
    expect(page.body).toMatch(/name="action" value="reject"/);
    expect(page.body).not.toMatch(/<script|style=/i);
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    const css = await server.app.inject({ method: 'GET', url: '/sandbox/assets/sandbox.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');

    // Wrong document data: the form again with the errors, nothing decided.
    const bad = await submit(first.body.verification_url, {
      ...GOOD,
      document_number: '112-233-445 96',
      action: 'approve',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Проверьте номер документа');
    expect(bad.body).toContain('value="Петров Иван Сергеевич"');
    expect((await statusOf(token)).active_identification.status).toBe('pending');

    // Approve: redirect to the app, the signed webhooks raised the level.
    const approved = await submit(first.body.verification_url, { ...GOOD, action: 'approve' });
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe('/settings');
    const info2 = await server.call('GET', INFO, { token });
    expect(info2.body).toMatchObject({
      identification_level: { name: 'simplified', ask_for_next: true },
      active_identification: { id: first.body.active_identification.id, status: 'complete', reason: null },
      is_topup_allowed: true,
      is_withdrawal_allowed: true,
      is_transfer_allowed: true,
    });
    expect(await levelChanges(userId)).toBe(1);
    // The page now shows the outcome, and a repeated submit changes nothing.
    const decided = await server.app.inject({ method: 'GET', url: first.body.verification_url });
    expect(decided.body).toContain('Проверка пройдена');
    expect((await submit(first.body.verification_url, { action: 'reject' })).statusCode).toBe(303);
    expect((await statusOf(token)).active_identification.status).toBe('complete');

    // Next level: full.
    const second = await started(token);
    expect((await statusOf(token)).active_identification).toMatchObject({
      status: 'pending',
      target_level: 'full',
    });
    expect(
      (
        await submit(second.url, {
          document_type: 'inn',
          document_number: '500100732259',
          full_name: GOOD.full_name,
          birth_date: GOOD.birth_date,
          action: 'approve',
        })
      ).statusCode,
    ).toBe(303);
    const info3 = await server.call('GET', INFO, { token });
    expect(info3.body).toMatchObject({
      identification_level: { name: 'full', ask_for_next: false },
      active_identification: { id: second.verificationId, status: 'complete', target_level: 'full' },
      is_topup_allowed: true,
      is_withdrawal_allowed: true,
      is_transfer_allowed: true,
    });
    expect(await levelChanges(userId)).toBe(2);

    // At the top nothing more is needed.
    const top = await upgrade(token);
    expect(top.status).toBe(409);
    expect(top.body.code).toBe('VERIFICATION_NOT_NEEDED');
  });

  it('ends a rejected verification aborted with its reason, and allows a retry', async () => {
    const { token, userId } = await newUser();
    const first = await started(token);
    const rejected = await submit(first.url, { action: 'reject', reason: 'Фото документа нечитаемо' });
    expect(rejected.statusCode).toBe(303);
    expect(rejected.headers.location).toBe('/settings');
    const status = await statusOf(token);
    expect(status.identification_level).toEqual({ name: 'anonymous', ask_for_next: true });
    expect(status.active_identification).toMatchObject({
      id: first.verificationId,
      status: 'aborted',
      reason: 'Фото документа нечитаемо',
    });
    expect(await levelChanges(userId)).toBe(0);

    // A reject without a reason gets the provider's default reason.
    const retry = await started(token);
    expect(retry.verificationId).not.toBe(first.verificationId);
    await submit(retry.url, { action: 'reject' });
    expect((await statusOf(token)).active_identification).toMatchObject({
      status: 'aborted',
      reason: 'Документ не прошёл проверку',
    });

    // Retry once more and pass.
    const third = await started(token);
    await submit(third.url, { ...GOOD, action: 'approve' });
    const final = await statusOf(token);
    expect(final.identification_level.name).toBe('simplified');
    expect(final.active_identification).toMatchObject({ id: third.verificationId, status: 'complete' });
    expect(await verificationRows(userId)).toHaveLength(3);
  });

  it('refuses callbacks without a valid signature and changes nothing', async () => {
    const { token, userId } = await newUser();
    const { appId } = await started(token);
    const before = await verificationRows(userId);
    const raw = webhookBody(appId, 'verification.approved', 2);

    const cases: Array<[string, Parameters<typeof sendWebhook>[1]]> = [
      ['no header', { header: null }],
      ['empty header', { header: '' }],
      ['malformed header', { header: 'garbage' }],
      ['wrong secret', { secret: 'another-secret-of-16-chars-or-more' }],
      ['tampered body', { body: raw.replace('"sequence":2', '"sequence":3') }],
      ['stale timestamp', { at: new Date(server.clock.now().getTime() - 301_000) }],
      ['timestamp from the future', { at: new Date(server.clock.now().getTime() + 301_000) }],
    ];
    for (const [label, options] of cases) {
      const res = await sendWebhook(raw, options);
      expect(res.status, label).toBe(401);
      expect(res.body.code, label).toBe('WEBHOOK_SIGNATURE_INVALID');
      expect(isErrorShape(res.body), label).toBe(true);
    }
    // An unsigned body that is not even valid is refused for its signature first.
    const junk = await server.call('POST', WEBHOOK, { body: { nothing: true } });
    expect(junk.status).toBe(401);

    expect(await verificationRows(userId)).toEqual(before);
    expect((await statusOf(token)).active_identification.status).toBe('pending');
    expect(await levelChanges(userId)).toBe(0);

    // Within five minutes the same callback is accepted.
    const ok = await sendWebhook(raw, { at: new Date(server.clock.now().getTime() - 299_000) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'success' });
    expect((await statusOf(token)).identification_level.name).toBe('simplified');
  });

  it('handles repeated, late and out-of-order callbacks: a final status never goes back', async () => {
    const { token, userId } = await newUser();
    const { appId } = await started(token);

    // in_review (1) moves pending -> in_review; a repeat of it changes nothing.
    expect((await sendWebhook(webhookBody(appId, 'verification.in_review', 1))).status).toBe(200);
    expect((await statusOf(token)).active_identification.status).toBe('in_review');
    expect((await upgrade(token)).body.code).toBe('VERIFICATION_ACTIVE');
    expect((await sendWebhook(webhookBody(appId, 'verification.in_review', 1))).status).toBe(200);
    // The sandbox itself still says pending (sequence 0): a refresh does not move in_review back.
    expect((await statusOf(token)).active_identification.status).toBe('in_review');

    // approved (3) arrives before rejected (2) was delivered: the newer one wins, the late one is ignored.
    expect((await sendWebhook(webhookBody(appId, 'verification.approved', 3))).status).toBe(200);
    expect((await sendWebhook(webhookBody(appId, 'verification.rejected', 2, 'late'))).status).toBe(200);
    // Repeated approvals and a later rejection do not change a final status nor raise twice.
    for (let i = 0; i < 3; i++) {
      expect((await sendWebhook(webhookBody(appId, 'verification.approved', 3))).status).toBe(200);
    }
    expect((await sendWebhook(webhookBody(appId, 'verification.rejected', 9, 'after the end'))).status).toBe(
      200,
    );
    const status = await statusOf(token);
    expect(status.identification_level.name).toBe('simplified');
    expect(status.active_identification).toMatchObject({ status: 'complete', reason: null });
    expect(await levelChanges(userId)).toBe(1);

    // An approval arriving before the in_review it follows: complete directly, in_review later ignored.
    const next = await started(token);
    expect((await sendWebhook(webhookBody(next.appId, 'verification.approved', 2))).status).toBe(200);
    expect((await sendWebhook(webhookBody(next.appId, 'verification.in_review', 1))).status).toBe(200);
    const full = await statusOf(token);
    expect(full.identification_level.name).toBe('full');
    expect(full.active_identification).toMatchObject({ id: next.verificationId, status: 'complete' });
    expect(await levelChanges(userId)).toBe(2);
  });

  it('moves in_review to aborted on a rejection callback', async () => {
    const { token } = await newUser();
    const { appId } = await started(token);
    await sendWebhook(webhookBody(appId, 'verification.in_review', 1));
    await sendWebhook(webhookBody(appId, 'verification.rejected', 2, 'Документ просрочен'));
    expect((await statusOf(token)).active_identification).toMatchObject({
      status: 'aborted',
      reason: 'Документ просрочен',
    });
    // A late approval of the aborted verification raises nothing.
    await sendWebhook(webhookBody(appId, 'verification.approved', 3));
    expect((await statusOf(token)).identification_level.name).toBe('anonymous');
  });

  it('answers callbacks of unknown verifications 404 and validates signed bodies', async () => {
    const unknown = await sendWebhook(
      webhookBody('00000000-0000-4000-8000-000000000000', 'verification.approved', 1),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('VERIFICATION_NOT_FOUND');
    const invalid = await sendWebhook(JSON.stringify({ event: 'verification.exploded' }));
    expect(invalid.status).toBe(400);
    expect(isErrorShape(invalid.body)).toBe(true);
  });

  it('recovers a lost callback on status refresh', async () => {
    const { token } = await newUser();
    const { url } = await started(token);
    const provider = server.ctx.kyc as SandboxKycProvider;
    // The network drops every callback.
    provider.setTransport(async () => {
      throw new Error('connection reset');
    });
    try {
      expect((await submit(url, { ...GOOD, action: 'approve' })).statusCode).toBe(303);
      const info = await server.call('GET', INFO, { token });
      expect(info.body.active_identification.status).toBe('pending');
      const refreshed = await statusOf(token);
      expect(refreshed.identification_level.name).toBe('simplified');
      expect(refreshed.active_identification.status).toBe('complete');
    } finally {
      provider.setTransport(async ({ path, headers, body }) => {
        const response = await server.app.inject({ method: 'POST', url: path, headers, payload: body });
        return response.statusCode;
      });
    }
  });

  it('aborts a verification left pending too long; late callbacks are ignored and a retry works', async () => {
    const { token, userId } = await newUser();
    const { appId, url } = await started(token);
    server.clock.advance(PENDING_TTL_MS - 1000);
    expect((await statusOf(token)).active_identification.status).toBe('pending');
    server.clock.advance(2000);
    const expired = await statusOf(token);
    expect(expired.active_identification).toMatchObject({ status: 'aborted', reason: REASON_EXPIRED });
    // The provider's application is closed too.
    const page = await server.app.inject({ method: 'GET', url });
    expect(page.body).toContain('Заявка закрыта');
    expect((await submit(url, { ...GOOD, action: 'approve' })).statusCode).toBe(303);
    // A late approval callback for it changes nothing.
    expect((await sendWebhook(webhookBody(appId, 'verification.approved', 5))).status).toBe(200);
    expect((await statusOf(token)).identification_level.name).toBe('anonymous');
    expect(await levelChanges(userId)).toBe(0);
    // Retry.
    const retry = await started(token);
    await submit(retry.url, { ...GOOD, action: 'approve' });
    expect((await statusOf(token)).identification_level.name).toBe('simplified');
  });

  it('answers PROVIDER_UNAVAILABLE when the provider cannot start, and allows a retry', async () => {
    const { token } = await newUser();
    const real = server.ctx.kyc;
    const broken: KycProvider = {
      id: real.id,
      start: async () => {
        throw new Error('provider down');
      },
      fetch: (id) => real.fetch(id),
      cancel: (id, reason) => real.cancel(id, reason),
    };
    server.ctx.kyc = broken;
    try {
      const res = await upgrade(token);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('PROVIDER_UNAVAILABLE');
      expect((await statusOf(token)).active_identification.status).toBe('aborted');
    } finally {
      server.ctx.kyc = real;
    }
    const retry = await upgrade(token);
    expect(retry.status).toBe(200);
    expect(retry.body.active_identification.status).toBe('pending');
  });

  it('accepts the upgrade and status calls with an empty JSON object too, and answers errors in English', async () => {
    const { token } = await newUser();
    const res = await server.call('POST', UPGRADE, { token, body: {} });
    expect(res.status).toBe(200);
    const en = await server.call('POST', UPGRADE, { token, headers: { 'accept-language': 'en' } });
    expect(en.body.message).toBe('A verification is already in progress. Please refresh its status');
    expect((await server.call('POST', STATUS, { token, body: {} })).status).toBe(200);
  });

  it('answers 404 for an unknown sandbox application', async () => {
    const page = await server.app.inject({
      method: 'GET',
      url: '/sandbox/kyc/00000000-0000-4000-8000-000000000000',
    });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Заявка не найдена');
    const bad = await server.app.inject({ method: 'GET', url: '/sandbox/kyc/not-an-id' });
    expect(bad.statusCode).toBe(404);
  });

  it('escapes what the applicant typed when showing the form again', async () => {
    const { token } = await newUser();
    const { url } = await started(token);
    const res = await submit(url, { ...GOOD, full_name: '<script>alert(1)</script>', action: 'approve' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;');
    const noAction = await submit(url, { ...GOOD });
    expect(noAction.statusCode).toBe(400);
  });

  it('starts one verification when many upgrades race, and raises once when many approvals race', async () => {
    const { token, userId } = await newUser();
    const results = await Promise.all(Array.from({ length: 8 }, () => upgrade(token)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.code).toBe('VERIFICATION_ACTIVE');
    const appId = ok[0]!.body.verification_url.split('/').pop();
    const approvals = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sendWebhook(webhookBody(appId, 'verification.approved', 2 + (i % 3))),
      ),
    );
    for (const a of approvals) expect(a.status).toBe(200);
    expect(await levelChanges(userId)).toBe(1);
    const rows = await verificationRows(userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'complete' });
  });

  it('has no sandbox pages in production', async () => {
    const app = Fastify();
    sandboxKycRoutes(app, { ...server.ctx, config: { ...server.config, production: true } });
    await app.ready();
    expect(app.hasRoute({ method: 'GET', url: '/sandbox/kyc/:id' })).toBe(false);
    expect(app.hasRoute({ method: 'POST', url: '/sandbox/kyc/:id' })).toBe(false);
    await app.close();
    expect(
      () => new SandboxKycProvider({ ...server.config, production: true }, server.ctx.db, server.clock),
    ).toThrow(/refused/);
  });
});
