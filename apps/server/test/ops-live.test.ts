/**
 * An operator's action reaches the person's open app at once
 * (docs/decisions/back-office.md#the-back-office-on-the-apps-stack): a freeze, an unfreeze, an identification
 * decision and a refund arrive on the person's event stream as they happen, as money events already do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { openStream } from './sse-client.ts';
import { PIN, person } from './withdrawal-helpers.ts';

const SNILS = {
  document_type: 'snils',
  document_number: '112-233-445 95',
  full_name: 'Петрова Анна Сергеевна',
  birth_date: '1990-05-17',
};

describe(`an operator's action, live to the person (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let base: string;
  let admin: TestOperator;
  let finance: TestOperator;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KYC_PROVIDER: 'manual', DOCUMENTS_KEY: 'a-documents-key-of-at-least-32-chars-0001' },
    });
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    back = await startOps(server);
    admin = await operator(server, back, 'admin');
    finance = await operator(server, back, 'finance');
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });
  const as =
    (who: TestOperator) =>
    (url: string, body: unknown = {}) =>
      back.call('POST', url, { token: who.token, body });

  it('tells the person of a freeze, an unfreeze, an identification decision and a refund as they happen', async () => {
    const anna = await person(server, { level: 'anonymous', rub: 0n });
    let stream = await openStream(base, anna.token, { language: 'en' });
    expect((await stream.next('ready')).data).toEqual({ resumed: false });

    expect((await as(admin)(`/ops/v1/users/${anna.userId}/freeze`, { reason: 'AML' })).status).toBe(200);
    expect((await stream.next('notification')).data.notification.message).toContain(
      'frozen by our support team',
    );
    expect((await as(admin)(`/ops/v1/users/${anna.userId}/unfreeze`, { reason: 'Checked' })).status).toBe(
      200,
    );
    // Lifting a freeze ends every session (docs/decisions/security-rules.md#hardening-third-round, "Recovery
    // ends sessions"): the open app hears so and closes; signed in afresh, the person finds the notice in the
    // bell.
    expect((await stream.next('session')).data).toEqual({ reason: 'revoked' });
    await stream.ended;
    expect(
      (await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: anna.phone } })).status,
    ).toBe(200);
    const login = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: anna.phone, confirm_code: await lastCode(server, anna.phone) },
    });
    expect(login.status).toBe(200);
    anna.token = login.body.auth_token;
    const bell = await server.call('GET', '/v2/wallet/user/notification', {
      token: anna.token,
      headers: { 'Accept-Language': 'en' },
    });
    expect(bell.body.results.map((n: { message: string }) => n.message)).toContain('Your wallet is unfrozen');
    stream = await openStream(base, anna.token, { language: 'en' });
    expect((await stream.next('ready')).data).toMatchObject({ resumed: false });

    // Documents for manual review; the operator's decision reaches the open app.
    const started = await server.call('POST', '/v2/wallet/identification-level/upgrade', {
      token: anna.token,
      body: {},
    });
    const applicationId = started.body.verification_url.split('=').at(-1);
    await server.call('POST', '/v2/wallet/identification-level/documents', {
      token: anna.token,
      body: { ...SNILS, application_id: applicationId },
    });
    expect((await as(admin)(`/ops/v1/identifications/${applicationId}/approve`)).body.level).toBe(
      'simplified',
    );
    expect((await stream.next('notification')).data.notification.message).toBe(
      'Your documents are verified: the new limits apply now',
    );

    // A refund of a payment the person made: the money comes back on the stream.
    const payee = await person(server);
    const funded = await person(server, { rub: 100_000n });
    const paid = await server.call('POST', '/v2/wallet/transfer', {
      token: funded.token,
      body: { phone: anna.phone, amount: '200', currency_code: 'RUB', pin: PIN },
    });
    expect(paid.status).toBe(200);
    expect((await stream.next('transaction')).data).toMatchObject({ amount: '200.00' });
    const sent = await server.call('POST', '/v2/wallet/transfer', {
      token: anna.token,
      body: { phone: payee.phone, amount: '150', currency_code: 'RUB', pin: PIN },
    });
    expect(sent.status).toBe(200);
    expect((await stream.next('transaction')).data).toMatchObject({ amount: '-150.00' });
    const { rows } = await server.ctx.db.query<{ id: string }>(
      `SELECT t.id FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
       WHERE a.user_id = $1 ORDER BY t.created_at DESC LIMIT 1`,
      [anna.userId],
    );
    const proposed = await as(finance)('/ops/v1/refunds', {
      transfer_id: rows[0]!.id,
      amount: '150',
      reason: 'Ошибка',
    });
    expect(proposed.status).toBe(200);
    expect((await as(admin)(`/ops/v1/refunds/${proposed.body.id}/approve`)).body.status).toBe('approved');
    const refund = await stream.next('transaction');
    expect(refund.data).toMatchObject({ amount: '150.00', description: expect.stringMatching(/Refund/) });
    expect((await stream.next('balance')).data).toMatchObject({ balance: '200.00' });
    stream.close();
  });

  it('tells the person when an operator rejects their documents, with the reason', async () => {
    const boris = await person(server, { level: 'anonymous' });
    const stream = await openStream(base, boris.token);
    await stream.next('ready');
    const started = await server.call('POST', '/v2/wallet/identification-level/upgrade', {
      token: boris.token,
      body: {},
    });
    const applicationId = started.body.verification_url.split('=').at(-1);
    await server.call('POST', '/v2/wallet/identification-level/documents', {
      token: boris.token,
      body: { ...SNILS, application_id: applicationId },
    });
    const rejected = await as(admin)(`/ops/v1/identifications/${applicationId}/reject`, {
      reason: 'Фото нечитаемо',
    });
    expect(rejected.status).toBe(200);
    expect((await stream.next('notification')).data.notification.message).toBe(
      'Проверка документов не пройдена: Фото нечитаемо',
    );
    stream.close();
  });
});
