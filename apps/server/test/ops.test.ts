/**
 * The operators' back office API (docs/decisions/back-office.md#the-operators-back-office) on its own server:
 * sign-in with a one-time password and a TOTP code, lockouts and session ends, every call for every role, a
 * wallet token refused, the API absent from the public port, freeze and unfreeze, identification decisions,
 * refunds under four eyes, stuck payouts, the append-only audit and the reconciliation.
 */
import { randomUUID } from 'node:crypto';
import { OPERATOR_ROLES, type OpsCallName, opsCalls, roleAllows } from '@e-wallet/contract';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { type OpsServer, operator, ops, startOps, type TestOperator, totp } from './ops-helpers.ts';
import { started, submitCard } from './topup-helpers.ts';
import { GOOD_CARD, type Person, PIN, person, withdraw } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const SNILS = {
  document_type: 'snils',
  document_number: '112-233-445 95',
  full_name: 'Петров Иван Сергеевич',
  birth_date: '1990-05-17',
};

describe(`the back office API (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  const clock = new TestClock(Date.parse('2026-03-15T09:00:00Z'));
  const team: Partial<Record<(typeof OPERATOR_ROLES)[number], TestOperator>> = {};
  beforeAll(async () => {
    server = await startTestServer({
      clock,
      env: { KYC_PROVIDER: 'manual', DOCUMENTS_KEY: 'a-documents-key-of-at-least-32-chars-0001' },
    });
    back = await startOps(server);
    for (const role of OPERATOR_ROLES) team[role] = await operator(server, back, role);
  }, 180_000);
  afterEach(async () => {
    await expectLedgerSound(server);
  });
  // Tests move the clock: an operator whose session ran out signs in again as a new operator.
  const refresh = async () => {
    for (const role of OPERATOR_ROLES) {
      const me = await back.call('GET', '/ops/v1/me', { token: team[role]!.token });
      if (me.status !== 200) team[role] = await operator(server, back, role);
    }
  };
  beforeEach(refresh);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });
  const as = (who: TestOperator) => ({
    get: (url: string) => back.call('GET', url, { token: who.token }),
    post: (url: string, body: unknown = {}) => back.call('POST', url, { token: who.token, body }),
  });
  const transfer = (from: Person, to: Person, amount: string) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
    });
  const lastTransferOf = async (who: Person) =>
    (
      await server.ctx.db.query<{ id: string }>(
        `SELECT t.id FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
         WHERE a.user_id = $1 ORDER BY t.created_at DESC LIMIT 1`,
        [who.userId],
      )
    ).rows[0]!.id;
  const available = async (who: Person) =>
    (
      await server.ctx.db.query<{ available: bigint }>(
        `SELECT balance - pending_debits AS available FROM ledger_accounts WHERE user_id = $1 AND currency = 'RUB'`,
        [who.userId],
      )
    ).rows[0]!.available;

  it('is absent from the public port, and the back office answers nothing of the wallet', async () => {
    for (const [method, url] of [
      ['POST', '/ops/v1/auth/login'],
      ['GET', '/ops/v1/users?query=ivan'],
      ['GET', '/ops/v1/audit'],
    ] as const) {
      const res = await server.call(method, url, { body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await back.call('GET', '/v2/wallet')).status).toBe(404);
    // Nor can it be configured onto the public port.
    expect(() => loadConfig({ PORT: '8080', OPS_PORT: '8080' })).toThrow(/OPS_PORT: must differ from PORT/);
    // Its own CSP: self only, nothing third-party.
    const csp = String((await back.call('GET', '/ops/v1/me')).headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('create-operator prints a one-time password and a base32 TOTP secret; the first sign-in replaces it', async () => {
    const email = `first-${randomUUID()}@ops.example`;
    const made = await ops(server, 'create-operator', '--email', email, '--role', 'support');
    expect(made.code).toBe(0);
    const password = /^password: (\S+)$/m.exec(made.out)![1]!;
    const secret = /^totp_secret: (\S+)$/m.exec(made.out)![1]!;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect((await ops(server, 'create-operator', '--email', email, '--role', 'support')).code).toBe(1);
    expect((await ops(server, 'create-operator', '--email', email, '--role', 'boss')).code).toBe(2);
    // Neither the password nor the secret is stored in the clear.
    const { rows } = await server.ctx.db.query<Record<string, unknown>>(
      'SELECT * FROM operators WHERE email = $1',
      [email],
    );
    expect(JSON.stringify(rows[0], (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      password,
    );
    expect(Buffer.from(rows[0]!.totp_sealed as Buffer).includes(Buffer.from(secret))).toBe(false);

    const login = (body: Record<string, unknown>) => back.call('POST', '/ops/v1/auth/login', { body });
    const code = await totp(server, secret);
    const first = await login({ email, password, totp: code });
    expect(first.status).toBe(403);
    expect(first.body).toMatchObject({ status: 'error', code: 'PASSWORD_CHANGE_REQUIRED' });
    expect((await login({ email, password, totp: code, new_password: 'short' })).body.code).toBe(
      'PASSWORD_WEAK',
    );
    const signed = await login({
      email: email.toUpperCase(),
      password,
      totp: code,
      new_password: 'a-new-long-password',
    });
    expect(signed.status).toBe(200);
    expect(signed.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const me = await back.call('GET', '/ops/v1/me', { token: signed.body.token });
    expect(me.body).toMatchObject({ email, role: 'support' });
    // The same code never signs in twice; the one-time password no longer works.
    expect((await login({ email, password: 'a-new-long-password', totp: code })).body.code).toBe(
      'OPERATOR_SIGN_IN_FAILED',
    );
    clock.advance(30_000);
    expect((await login({ email, password, totp: await totp(server, secret) })).status).toBe(401);
    clock.advance(30_000);
    expect(
      (await login({ email, password: 'a-new-long-password', totp: await totp(server, secret) })).status,
    ).toBe(200);
  });

  it('never locks an operator out for wrong tries, and an administrator clears their count', async () => {
    const email = `tried-${randomUUID()}@ops.example`;
    const made = await ops(server, 'create-operator', '--email', email, '--role', 'finance');
    const password = /^password: (\S+)$/m.exec(made.out)![1]!;
    const secret = /^totp_secret: (\S+)$/m.exec(made.out)![1]!;
    const login = async (overrides: Record<string, unknown> = {}, address = '198.51.100.7') =>
      back.call('POST', '/ops/v1/auth/login', {
        body: { email, password, totp: await totp(server, secret), ...overrides },
        headers: { 'accept-language': 'en' },
        address,
      });
    const session = await login({ new_password: 'finance-long-password' });
    expect(session.status).toBe(200);
    // Twenty wrong tries from twenty addresses: the operator's session lives and they still sign in.
    for (let i = 0; i < 20; i++) {
      const wrong = await login({ password: 'finance-long-password!' }, `203.0.113.${i + 1}`);
      expect([wrong.status, wrong.body.message]).toEqual([401, 'Wrong e-mail, password or code']);
    }
    expect((await back.call('GET', '/ops/v1/me', { token: session.body.token })).status).toBe(200);
    const listed = await as(team.admin!).get('/ops/v1/operators?limit=100');
    const row = listed.body.results.find((o: { email: string }) => o.email === email);
    expect(row.failures).toBe(20);
    expect(JSON.stringify(listed.body)).not.toMatch(/password_hash|totp_sealed/);
    expect((await as(team.support!).post(`/ops/v1/operators/${row.id}/unlock`)).status).toBe(403);
    expect((await as(team.admin!).post(`/ops/v1/operators/${row.id}/unlock`)).status).toBe(200);
    clock.advance(30_000);
    expect((await login({ password: 'finance-long-password' })).status).toBe(200);
  });

  it('ends a session after 30 idle minutes and 12 hours after sign-in', async () => {
    const idle = await operator(server, back, 'support');
    clock.advance(29 * 60_000);
    expect((await as(idle).get('/ops/v1/me')).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await as(idle).get('/ops/v1/me')).body.code).toBe('INVALID_TOKEN');

    const busy = await operator(server, back, 'support');
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      clock.advance(20 * 60_000);
      expect((await as(busy).get('/ops/v1/me')).status).toBe(200);
    }
    clock.advance(40 * 60_000);
    expect((await as(busy).get('/ops/v1/me')).status).toBe(401);
    // Signing out ends it at once.
    const other = await operator(server, back, 'support');
    expect((await as(other).post('/ops/v1/auth/logout')).status).toBe(200);
    expect((await as(other).get('/ops/v1/me')).status).toBe(401);
    for (const role of OPERATOR_ROLES) team[role] = await operator(server, back, role);
  });

  const sample: Record<OpsCallName, { url: string; body?: unknown }> = {
    login: { url: '/ops/v1/auth/login' },
    logout: { url: '/ops/v1/auth/logout' },
    me: { url: '/ops/v1/me' },
    users: { url: '/ops/v1/users?query=nobody-at-all' },
    user: { url: `/ops/v1/users/${randomUUID()}` },
    freeze: { url: `/ops/v1/users/${randomUUID()}/freeze`, body: { reason: 'check' } },
    reportClose: { url: `/ops/v1/reports/${randomUUID()}/close`, body: { reason: 'check' } },
    unfreeze: { url: `/ops/v1/users/${randomUUID()}/unfreeze`, body: { reason: 'check' } },
    identifications: { url: '/ops/v1/identifications?status=pending' },
    identificationPhotos: { url: `/ops/v1/identifications/${randomUUID()}/photos` },
    identificationApprove: { url: `/ops/v1/identifications/${randomUUID()}/approve` },
    identificationReject: { url: `/ops/v1/identifications/${randomUUID()}/reject`, body: { reason: 'x' } },
    refunds: { url: '/ops/v1/refunds?status=proposed' },
    refundPropose: { url: '/ops/v1/refunds', body: { transfer_id: randomUUID(), amount: '1', reason: 'x' } },
    refundApprove: { url: `/ops/v1/refunds/${randomUUID()}/approve` },
    refundReject: { url: `/ops/v1/refunds/${randomUUID()}/reject`, body: { reason: 'x' } },
    payouts: { url: '/ops/v1/payouts?status=stuck' },
    payoutSettle: { url: `/ops/v1/payouts/${randomUUID()}/settle`, body: { reason: 'x' } },
    payoutRelease: { url: `/ops/v1/payouts/${randomUUID()}/release`, body: { reason: 'x' } },
    audit: { url: '/ops/v1/audit' },
    reconciliation: { url: '/ops/v1/reconciliation?date=2026-03-14' },
    operators: { url: '/ops/v1/operators' },
    operatorCreate: { url: '/ops/v1/operators', body: { email: 'not an e-mail', role: 'support' } },
    operatorUnlock: { url: `/ops/v1/operators/${randomUUID()}/unlock` },
    operatorDisable: { url: `/ops/v1/operators/${randomUUID()}/disable`, body: { reason: 'x' } },
    operatorRole: { url: `/ops/v1/operators/${randomUUID()}/role`, body: { role: 'support' } },
    operatorRoleConfirm: { url: `/ops/v1/operators/${randomUUID()}/role/confirm` },
    operatorTotpReset: { url: `/ops/v1/operators/${randomUUID()}/totp-reset` },
    setupStart: { url: '/ops/v1/setup/start', body: { token: 'x'.repeat(43) } },
    setupFinish: { url: '/ops/v1/setup/finish', body: { token: 'x'.repeat(43), totp: '123456' } },
    holds: { url: '/ops/v1/holds' },
    holdRelease: { url: `/ops/v1/holds/${randomUUID()}/release`, body: { reason: 'x' } },
    holdRefuse: { url: `/ops/v1/holds/${randomUUID()}/refuse`, body: { reason: 'x' } },
    fraudList: { url: '/ops/v1/fraud-list' },
    fraudListPropose: { url: '/ops/v1/fraud-list', body: { kind: 'account', value: '123', reason: 'x' } },
    fraudListConfirm: { url: `/ops/v1/fraud-list/${randomUUID()}/confirm` },
    fraudListRemove: { url: `/ops/v1/fraud-list/${randomUUID()}/remove`, body: { reason: 'x' } },
    supportConversations: { url: '/ops/v1/support/conversations?status=open' },
    supportConversation: { url: `/ops/v1/support/conversations/${randomUUID()}/messages` },
    supportReply: { url: `/ops/v1/support/conversations/${randomUUID()}/messages`, body: { text: 'x' } },
    supportClose: { url: `/ops/v1/support/conversations/${randomUUID()}/close` },
    supportEvents: { url: '/ops/v1/support/events' },
    jobs: { url: '/ops/v1/jobs' },
    jobProblems: { url: '/ops/v1/jobs/payout-check' },
    jobRetry: { url: `/ops/v1/jobs/payout-check/${randomUUID()}/retry` },
    jobCancel: { url: `/ops/v1/jobs/payout-check/${randomUUID()}/cancel` },
    merchants: { url: '/ops/v1/merchants?status=pending' },
    merchantApprove: { url: `/ops/v1/merchants/${randomUUID()}/approve` },
    merchantReject: { url: `/ops/v1/merchants/${randomUUID()}/reject`, body: { reason: 'x' } },
  };

  it('refuses a wallet user’s token, and no token, on every call', async () => {
    const walletUser = await person(server);
    for (const [name, call] of Object.entries(opsCalls) as Array<
      [OpsCallName, (typeof opsCalls)[OpsCallName]]
    >) {
      if (call.permission === 'public') continue;
      for (const token of [walletUser.token, undefined]) {
        const res = await back.call(call.method, sample[name].url, { token, body: sample[name].body });
        expect(res.status, `${name}`).toBe(401);
        expect(res.body.code).toBe('INVALID_TOKEN');
      }
    }
  });

  it('lets each role make exactly the calls its permissions name', async () => {
    for (const role of OPERATOR_ROLES) {
      for (const [name, call] of Object.entries(opsCalls) as Array<
        [OpsCallName, (typeof opsCalls)[OpsCallName]]
      >) {
        // The support stream never ends: support.test.ts reads it over HTTP.
        if (call.permission === 'public' || name === 'logout' || name === 'supportEvents') continue;
        const res = await back.call(call.method, sample[name].url, {
          token: team[role]!.token,
          body: sample[name].body,
        });
        const allowed =
          call.permission === 'signed_in' ||
          roleAllows(role, call.permission as Parameters<typeof roleAllows>[1]);
        if (allowed) expect(res.body?.code, `${role} ${name}`).not.toBe('OPERATOR_FORBIDDEN');
        else expect([res.status, res.body.code], `${role} ${name}`).toEqual([403, 'OPERATOR_FORBIDDEN']);
        // Never a 5xx, always the contract's shape for a refusal.
        expect(res.status, `${role} ${name}`).toBeLessThan(500);
      }
    }
  });

  it('finds a person and shows the card; support freezes, only compliance or admin unfreezes', async () => {
    const ivan = await person(server, { rub: rub(500) });
    const petr = await person(server);
    expect((await transfer(ivan, petr, '10')).status).toBe(200);
    const support = as(team.support!);
    const found = await support.get(`/ops/v1/users?query=${encodeURIComponent(ivan.phone.slice(-7))}`);
    expect(found.status).toBe(200);
    expect(found.body.results.map((u: { id: string }) => u.id)).toContain(ivan.userId);
    expect((await support.get('/ops/v1/users?query=Петров')).body.results.length).toBeGreaterThan(0);
    const card = await support.get(`/ops/v1/users/${ivan.userId}`);
    expect(card.body.user).toMatchObject({
      id: ivan.userId,
      phone: ivan.phone,
      level: 'simplified',
      frozen_by: null,
    });
    expect(card.body.accounts[0]).toMatchObject({ currency: 'RUB', balance: '490.00', available: '490.00' });
    expect(card.body.sessions.length).toBeGreaterThan(0);
    expect(card.body.operations[0]).toMatchObject({ kind: 'transfer', amount: '-10.00' });

    expect((await support.post(`/ops/v1/users/${ivan.userId}/freeze`, {})).body.code).toBe('FIELD_REQUIRED');
    const frozen = await support.post(`/ops/v1/users/${ivan.userId}/freeze`, {
      reason: 'AML: проверка операций',
    });
    expect(frozen.status).toBe(200);
    const refused = await transfer(ivan, petr, '10');
    expect([refused.status, refused.body.code]).toEqual([403, 'WALLET_FROZEN']);
    // The person is notified, and cannot lift an operator's freeze.
    const notices = await server.call('GET', '/v2/wallet/user/notification', { token: ivan.token });
    expect(JSON.stringify(notices.body)).toContain('Кошелёк заблокирован службой поддержки');
    expect(
      (
        await server.call('POST', '/v2/wallet/unfreeze', {
          token: ivan.token,
          body: { confirm_code: '0000', pin: PIN },
        })
      ).body.code,
    ).toBe('WALLET_FROZEN');
    // Money still comes in.
    expect((await transfer(petr, ivan, '5')).status).toBe(200);

    expect((await support.post(`/ops/v1/users/${ivan.userId}/unfreeze`, { reason: 'ok' })).status).toBe(403);
    const lifted = await as(team.compliance!).post(`/ops/v1/users/${ivan.userId}/unfreeze`, {
      reason: 'Проверка пройдена',
    });
    expect(lifted.status).toBe(200);
    // Lifting a freeze is a recovery step: it ends every session, so a thief's outlives nothing
    // (docs/decisions/security-rules.md#hardening-third-round); the person signs in again to send.
    expect((await transfer(ivan, petr, '10')).status).toBe(401);
    expect(
      (await as(team.compliance!).post(`/ops/v1/users/${ivan.userId}/unfreeze`, { reason: 'again' })).body
        .code,
    ).toBe('WALLET_NOT_FROZEN');
    expect((await support.post(`/ops/v1/users/${randomUUID()}/freeze`, { reason: 'x' })).body.code).toBe(
      'USER_NOT_FOUND',
    );

    // 'Это не я' reports appear on the card; the card's audit lists both actions with the reason.
    const after = await support.get(`/ops/v1/users/${ivan.userId}`);
    const actions = after.body.audit.map((a: { action: string }) => a.action);
    expect(actions).toEqual(['user_unfreeze', 'user_freeze']);
    expect(after.body.audit[1]).toMatchObject({
      operator_id: team.support!.id,
      operator_email: team.support!.email,
      object_type: 'user',
      object_id: ivan.userId,
      before: { frozen_by: null },
      after: { frozen_by: 'operator', reason: 'AML: проверка операций' },
    });
  });

  it('shows a person’s self-freeze and report, and an operator takes the freeze over', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    await transfer(ivan, petr, '10');
    const id = await lastTransferOf(ivan);
    const reported = await server.call('POST', `/v2/wallet/transaction/${id}/report`, {
      token: ivan.token,
      body: { reason: 'Не я' },
    });
    expect(reported.status).toBe(200);
    const card = await as(team.support!).get(`/ops/v1/users/${ivan.userId}`);
    expect(card.body.user.frozen_by).toBe('self');
    expect(card.body.reports[0]).toMatchObject({ transfer_id: id, reason: 'Не я', status: 'open' });
    await as(team.support!).post(`/ops/v1/users/${ivan.userId}/freeze`, { reason: 'Жалоба' });
    expect((await as(team.support!).get(`/ops/v1/users/${ivan.userId}`)).body.user.frozen_by).toBe(
      'operator',
    );
    // The report is answered: closed with what was found, once.
    const reportId = card.body.reports[0].id;
    expect(
      (
        await as(team.support!).post(`/ops/v1/reports/${reportId}/close`, {
          reason: 'Карта утеряна, перевыпуск',
        })
      ).status,
    ).toBe(200);
    expect(
      (await as(team.support!).post(`/ops/v1/reports/${reportId}/close`, { reason: 'again' })).body.code,
    ).toBe('NOT_FOUND');
    const closed = await as(team.support!).get(`/ops/v1/users/${ivan.userId}`);
    expect(closed.body.reports[0].status).toBe('closed');
    expect(closed.body.audit[0]).toMatchObject({
      action: 'report_close',
      after: { reason: 'Карта утеряна, перевыпуск' },
    });
  });

  it('decides identifications from the queue: approving raises the person to the next level', async () => {
    const { token, userId } = await person(server, { level: 'anonymous' });
    const startedUpgrade = await server.call('POST', '/v2/wallet/identification-level/upgrade', { token });
    const applicationId = startedUpgrade.body.verification_url.split('=').at(-1);
    // A real photo: the server decodes and re-encodes every upload
    // (docs/decisions/security-rules.md#hardening-third-round).
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const photo = await server.call('POST', '/v2/wallet/identification-level/documents/photo', {
      token,
      body: { application_id: applicationId, content_type: 'image/jpeg', data: jpeg.toString('base64') },
    });
    expect(photo.status).toBe(200);
    await server.call('POST', '/v2/wallet/identification-level/documents', {
      token,
      body: { ...SNILS, application_id: applicationId },
    });
    // The photos: for those who decide only, and each opening is audited.
    expect((await as(team.support!).get(`/ops/v1/identifications/${applicationId}/photos`)).status).toBe(403);
    const photos = await as(team.compliance!).get(`/ops/v1/identifications/${applicationId}/photos`);
    // The stored photo is the server's re-encoding of the upload: a JPEG of the same size.
    expect(photos.body.photos).toHaveLength(1);
    expect(photos.body.photos[0].content_type).toBe('image/jpeg');
    const stored = await sharp(Buffer.from(photos.body.photos[0].data, 'base64')).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(['jpeg', 40, 30]);
    const viewed = await as(team.admin!).get(`/ops/v1/audit?user=${userId}`);
    expect(viewed.body.results.map((line: { action: string }) => line.action)).toContain(
      'identification_photos_viewed',
    );
    const queue = await as(team.support!).get('/ops/v1/identifications?status=pending');
    const entry = queue.body.results.find((a: { id: string }) => a.id === applicationId);
    expect(entry).toMatchObject({
      status: 'pending',
      target_level: 'simplified',
      document_type: 'snils',
      document_number_masked: '*******4595',
      document_number: null,
      photos: null,
      full_name: SNILS.full_name,
      birth_date: SNILS.birth_date,
    });
    expect(entry.user.id).toBe(userId);
    const forCompliance = await as(team.compliance!).get('/ops/v1/identifications');
    expect(
      forCompliance.body.results.find((a: { id: string }) => a.id === applicationId).document_number,
    ).toBe('11223344595');
    expect((await as(team.support!).post(`/ops/v1/identifications/${applicationId}/approve`)).status).toBe(
      403,
    );
    const approved = await as(team.compliance!).post(`/ops/v1/identifications/${applicationId}/approve`);
    expect(approved.body).toMatchObject({ status: 'approved', level: 'simplified' });
    expect((await server.call('GET', '/v2/wallet/auth/info', { token })).body.identification_level.name).toBe(
      'simplified',
    );
    expect((await as(team.admin!).post(`/ops/v1/identifications/${applicationId}/approve`)).body.code).toBe(
      'APPLICATION_NOT_IN_REVIEW',
    );

    // From simplified the next level is full, reached only by an operator's approval.
    const second = await server.call('POST', '/v2/wallet/identification-level/upgrade', { token });
    const secondId = second.body.verification_url.split('=').at(-1);
    await server.call('POST', '/v2/wallet/identification-level/documents', {
      token,
      body: { ...SNILS, application_id: secondId },
    });
    expect(
      (await as(team.compliance!).post(`/ops/v1/identifications/${secondId}/reject`, {})).body.code,
    ).toBe('FIELD_REQUIRED');
    const rejected = await as(team.compliance!).post(`/ops/v1/identifications/${secondId}/reject`, {
      reason: 'Фото нечитаемо',
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', level: 'simplified' });
    const status = await server.call('POST', '/v2/wallet/identification-level/status', { token });
    expect(status.body.active_identification).toMatchObject({ status: 'aborted', reason: 'Фото нечитаемо' });
    const third = await server.call('POST', '/v2/wallet/identification-level/upgrade', { token });
    const thirdId = third.body.verification_url.split('=').at(-1);
    await server.call('POST', '/v2/wallet/identification-level/documents', {
      token,
      body: { ...SNILS, application_id: thirdId },
    });
    expect((await as(team.admin!).post(`/ops/v1/identifications/${thirdId}/approve`)).body.level).toBe(
      'full',
    );
  });

  it('refunds under four eyes: the proposer cannot approve; money moves once, on approval', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    expect((await transfer(ivan, petr, '300')).status).toBe(200);
    const paid = await lastTransferOf(ivan);
    const finance = as(team.finance!);
    const admin = as(team.admin!);
    expect(
      (await as(team.support!).post('/ops/v1/refunds', { transfer_id: paid, amount: '1', reason: 'x' }))
        .status,
    ).toBe(403);
    const tooMuch = await finance.post('/ops/v1/refunds', {
      transfer_id: paid,
      amount: '300.01',
      reason: 'Ошибка',
    });
    expect(tooMuch.body.code).toBe('REFUND_EXCEEDS');
    const proposed = await finance.post('/ops/v1/refunds', {
      transfer_id: paid,
      amount: '200',
      reason: 'Ошибочный перевод',
    });
    expect(proposed.status).toBe(200);
    expect(proposed.body).toMatchObject({ status: 'proposed', amount: '200.00' });
    // Nothing moved yet.
    expect(await available(ivan)).toBe(rub(700));

    const self = await finance.post(`/ops/v1/refunds/${proposed.body.id}/approve`);
    expect([self.status, self.body.code]).toEqual([403, 'FOUR_EYES_REQUIRED']);
    expect(await available(ivan)).toBe(rub(700));
    const listed = await as(team.support!).get('/ops/v1/refunds?status=proposed');
    expect(listed.body.results.map((r: { id: string }) => r.id)).toContain(proposed.body.id);

    const approved = await admin.post(`/ops/v1/refunds/${proposed.body.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');
    expect(await available(ivan)).toBe(rub(900));
    expect(await available(petr)).toBe(rub(100));
    // Approving again moves nothing and answers the same transfer.
    const again = await admin.post(`/ops/v1/refunds/${proposed.body.id}/approve`);
    expect(again.body.refund_transfer_id).toBe(approved.body.refund_transfer_id);
    expect(await available(ivan)).toBe(rub(900));
    const { rows } = await server.ctx.db.query<{ kind: string; amount: bigint }>(
      'SELECT kind, amount FROM ledger_transfers WHERE id = $1',
      [approved.body.refund_transfer_id],
    );
    expect(rows[0]).toEqual({ kind: 'refund', amount: rub(200) });
    // What is left to refund is 100, whatever is proposed.
    expect(
      (await finance.post('/ops/v1/refunds', { transfer_id: paid, amount: '150', reason: 'x' })).body.code,
    ).toBe('REFUND_EXCEEDS');
    // A refund is never refunded.
    expect(
      (
        await finance.post('/ops/v1/refunds', {
          transfer_id: approved.body.refund_transfer_id,
          amount: '1',
          reason: 'x',
        })
      ).body.code,
    ).toBe('REFUND_NOT_ALLOWED');
    // A rejected proposal moves nothing and cannot be approved.
    const second = await finance.post('/ops/v1/refunds', { transfer_id: paid, amount: '50', reason: 'x' });
    expect(
      (await finance.post(`/ops/v1/refunds/${second.body.id}/reject`, { reason: 'Передумали' })).status,
    ).toBe(200);
    expect((await admin.post(`/ops/v1/refunds/${second.body.id}/approve`)).body.code).toBe(
      'REFUND_NOT_PROPOSED',
    );
    const audit = await admin.get(`/ops/v1/audit?operator=${team.finance!.id}`);
    expect(audit.body.results.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['refund_propose', 'refund_approve_refused', 'refund_reject', 'sign_in']),
    );
  });

  it('a refund respects the receiver’s balance cap and the payer’s money', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    await transfer(ivan, petr, '100');
    const paid = await lastTransferOf(ivan);
    // Ivan is filled up to his level's cap: the money cannot come back.
    const cap = server.config.levels.simplified.balanceMax;
    await fund(server.ctx, ivan.userId, cap - (await available(ivan)));
    const proposal = await as(team.finance!).post('/ops/v1/refunds', {
      transfer_id: paid,
      amount: '100',
      reason: 'x',
    });
    const capped = await as(team.admin!).post(`/ops/v1/refunds/${proposal.body.id}/approve`);
    expect([capped.status, capped.body.code]).toEqual([409, 'RECIPIENT_UNAVAILABLE']);

    const anna = await person(server, { rub: rub(100) });
    const oleg = await person(server);
    await transfer(anna, oleg, '100');
    const annaPaid = await lastTransferOf(anna);
    await transfer(oleg, anna, '60');
    const short = await as(team.finance!).post('/ops/v1/refunds', {
      transfer_id: annaPaid,
      amount: '100',
      reason: 'x',
    });
    expect((await as(team.admin!).post(`/ops/v1/refunds/${short.body.id}/approve`)).body.code).toBe(
      'INSUFFICIENT_FUNDS',
    );
    // Still proposed: approved later, once the money is there.
    await transfer(anna, oleg, '60');
    expect((await as(team.admin!).post(`/ops/v1/refunds/${short.body.id}/approve`)).status).toBe(200);
    expect(await available(anna)).toBe(rub(100));
  });

  it('lists stuck payouts and settles or releases each with a reason', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    // The provider never answers (the sandbox's worker does not run here): the payouts stay open.
    expect((await withdraw(server, ivan, { amount: '100.00' })).status).toBe(200);
    expect((await withdraw(server, ivan, { amount: '50.00' })).status).toBe(200);
    const { rows } = await server.ctx.db.query<{ id: string; amount: bigint }>(
      'SELECT id, amount FROM payouts WHERE user_id = $1 ORDER BY amount',
      [ivan.userId],
    );
    const [small, big] = rows;
    expect(
      (await as(team.support!).get('/ops/v1/payouts?status=stuck')).body.results.map(
        (p: { id: string }) => p.id,
      ),
    ).not.toContain(big!.id);
    clock.advance(31 * 60_000);
    await refresh();
    const stuck = await as(team.support!).get('/ops/v1/payouts?status=stuck');
    expect(stuck.body.results.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining([small!.id, big!.id]),
    );
    expect((await as(team.support!).post(`/ops/v1/payouts/${big!.id}/settle`, { reason: 'x' })).status).toBe(
      403,
    );
    expect((await as(team.finance!).post(`/ops/v1/payouts/${big!.id}/settle`, {})).body.code).toBe(
      'FIELD_REQUIRED',
    );
    const settled = await as(team.finance!).post(`/ops/v1/payouts/${big!.id}/settle`, {
      reason: 'Банк подтвердил выплату',
    });
    expect(settled.body.status).toBe('succeeded');
    const released = await as(team.finance!).post(`/ops/v1/payouts/${small!.id}/release`, {
      reason: 'Банк выплату не получил',
    });
    expect(released.body.status).toBe('failed');
    expect(await available(ivan)).toBe(rub(900));
    expect(
      (await as(team.finance!).post(`/ops/v1/payouts/${small!.id}/settle`, { reason: 'x' })).body.code,
    ).toBe('PAYOUT_NOT_OPEN');
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${small!.id}`, { token: ivan.token });
    if (receipt.status === 200) expect(receipt.body.status).toBe('failed');
  });

  it('keeps the audit append-only and filters it by person and operator', async () => {
    const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id::text FROM ops_audit LIMIT 1');
    await expect(
      server.ctx.db.query('UPDATE ops_audit SET action = $2 WHERE id = $1', [rows[0]!.id, 'x']),
    ).rejects.toThrow(/append-only/);
    await expect(server.ctx.db.query('DELETE FROM ops_audit WHERE id = $1', [rows[0]!.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(server.ctx.db.query('TRUNCATE ops_audit')).rejects.toThrow(/append-only/);
    const mine = await as(team.support!).get(`/ops/v1/audit?operator=${team.support!.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.results.length).toBeGreaterThan(0);
    for (const line of mine.body.results) expect(line.operator_id).toBe(team.support!.id);
    expect(mine.body.results.at(-1)).toMatchObject({
      action: 'sign_in',
      operator_email: team.support!.email,
    });
    // The whole audit, page after page: each line once, newest first, the failed sign-ins among them.
    const seen: Array<{ id: string; action: string }> = [];
    for (let next: string | null = ''; next !== null; ) {
      const pageOf = await as(team.admin!).get(`/ops/v1/audit?limit=100${next ? `&cursor=${next}` : ''}`);
      expect(pageOf.status).toBe(200);
      seen.push(...pageOf.body.results);
      next = pageOf.body.next;
    }
    expect(new Set(seen.map((line) => line.id)).size).toBe(seen.length);
    expect(seen.map((line) => Number(line.id))).toEqual(
      seen.map((line) => Number(line.id)).sort((a, b) => b - a),
    );
    expect(seen.map((line) => line.action)).toContain('sign_in_failed');
    expect((await as(team.support!).get('/ops/v1/audit?cursor=forged-cursor-text')).body.code).toBe(
      'FIELD_INVALID',
    );
    expect((await as(team.support!).get('/ops/v1/audit?user=not-an-id')).status).toBe(400);
    // Empty filters are no filters.
    expect((await as(team.support!).get('/ops/v1/audit?user=&operator=')).status).toBe(200);
  });

  it('reconciles the providers’ records of the day with the ledger and lists every difference', async () => {
    clock.set(new Date('2026-03-20T10:00:00Z'));
    await refresh();
    const ivan = await person(server, { rub: rub(1000) });
    const order = await started(server, ivan.token, '250');
    expect(
      (await submitCard(server, order.url, { card: GOOD_CARD.replace(/ /g, ''), action: 'pay' })).statusCode,
    ).toBeLessThan(400);
    await withdraw(server, ivan, { amount: '100.00' });
    const clean = await as(team.finance!).get('/ops/v1/reconciliation?date=2026-03-20');
    expect(clean.status).toBe(200);
    expect(clean.body.providers).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        kind: 'topups',
        listed: true,
        provider_records: 1,
        ledger_records: 1,
      }),
      expect.objectContaining({ provider: 'sandbox', kind: 'payouts', listed: true }),
    ]);
    expect(clean.body.differences).toEqual([]);

    // A card payment the wallet never credited, and a payout the provider paid that the ledger still holds.
    await server.ctx.db.query(
      `INSERT INTO sandbox_payments (order_id, amount, currency, description, return_url, status, created_at, updated_at)
       VALUES ($1, 70000, 'RUB', 'x', '/', 'succeeded', $2, $2)`,
      [randomUUID(), new Date('2026-03-20T11:00:00Z')],
    );
    await server.ctx.db.query(
      `UPDATE sandbox_payouts SET status = 'succeeded' WHERE reference IN (SELECT id FROM payouts WHERE user_id = $1)`,
      [ivan.userId],
    );
    const { rows: payout } = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM payouts WHERE user_id = $1',
      [ivan.userId],
    );
    const found = await as(team.finance!).get('/ops/v1/reconciliation?date=2026-03-20');
    const problems = found.body.differences.map(
      (d: { kind: string; problem: string }) => `${d.kind}:${d.problem}`,
    );
    expect(problems).toContain('topups:missing_in_ledger');
    if (payout[0]!.status !== 'succeeded') expect(problems).toContain('payouts:status_mismatch');
    expect(found.body.differences.find((d: { kind: string }) => d.kind === 'topups')).toMatchObject({
      provider_amount: '700.00',
      provider_status: 'succeeded',
      ledger_amount: null,
    });
    // Another day has none of them.
    expect((await as(team.finance!).get('/ops/v1/reconciliation?date=2026-03-18')).body.differences).toEqual(
      [],
    );
    expect((await as(team.finance!).get('/ops/v1/reconciliation?date=20.03.2026')).status).toBe(400);
  });
});
