/**
 * Merchants through the API: the application (full level, INN checksum, MCC, bank account's control key,
 * notification URL by the outbound rules), the operators' queue (roles, reason, audit), keys (shown once,
 * revoked at once) and the merchant API (HTTP Basic, create with Idempotency-Key, read, page, cancel; another
 * merchant's payment answers as a missing one; a merchant not approved is refused).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { application, approvedMerchant, basic, COMPANY_INN, type TestMerchant } from './merchant-helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { person } from './withdrawal-helpers.ts';

describe(`merchants (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let compliance: TestOperator;
  let support: TestOperator;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    back = await startOps(server);
    compliance = await operator(server, back, 'compliance');
    support = await operator(server, back, 'support');
  });
  afterAll(() => server.close());

  const apply = (token: string, body: Record<string, unknown>, language = 'ru') =>
    server.call('POST', '/v2/wallet/merchant', { token, body, headers: { 'accept-language': language } });

  it('opens a pending merchant at the full level only, and refuses bad details without writing', async () => {
    const simplified = await person(server);
    const low = await apply(simplified.token, application());
    expect(low.status).toBe(403);
    expect(low.body.code).toBe('MERCHANT_LEVEL_REQUIRED');

    const owner = await person(server, { level: 'full' });
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ inn: '500100732258' }, 400, 'FIELD_INVALID'],
      [{ inn: '7707083894', kind: 'company' }, 400, 'FIELD_INVALID'],
      [{ mcc: '1234' }, 400, 'FIELD_INVALID'],
      [{ bank_account: '40802810000000000001' }, 400, 'FIELD_INVALID'],
      [{ bank_bic: '04452522' }, 400, 'FIELD_INVALID'],
      [{ name: 'Торты\u0000' }, 400, 'FIELD_INVALID'],
      [{ notification_url: 'https://10.0.0.1/hook' }, 400, 'MERCHANT_URL_REFUSED'],
      [{ notification_url: 'http://shop.example.ru/hook' }, 400, 'MERCHANT_URL_REFUSED'],
      [{ notification_url: 'https://user:pw@shop.example.ru/hook' }, 400, 'MERCHANT_URL_REFUSED'],
    ];
    for (const [overrides, status, code] of refusals) {
      const res = await apply(owner.token, application(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect(res.body.code, JSON.stringify(overrides)).toBe(code);
    }
    const english = await apply(owner.token, application({ notification_url: 'https://192.168.1.1/' }), 'en');
    expect(english.body.message).toBe('The notification address cannot be used: not a public address');
    expect((await server.call('GET', '/v2/wallet/merchant', { token: owner.token })).status).toBe(404);

    // Loopback over plain http is allowed outside production (the example shop, the tests).
    const made = await apply(
      owner.token,
      application({ kind: 'company', inn: COMPANY_INN, notification_url: 'http://127.0.0.1:9/hook' }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.merchant).toMatchObject({ status: 'pending', kind: 'company', inn: COMPANY_INN });
    expect((await apply(owner.token, application())).body.code).toBe('MERCHANT_EXISTS');

    const own = await server.call('GET', '/v2/wallet/merchant', { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.body.merchant).toMatchObject({ balance: '0.00', currency_code: 'RUB', fee_percent: '1.50' });
    expect(own.body.merchant.webhook_secret).toMatch(/^whsec_/);
    // The secret is sealed at rest, never in the clear.
    const { rows } = await server.ctx.db.query<{ webhook_secret: Buffer }>(
      'SELECT webhook_secret FROM merchants WHERE id = $1',
      [made.body.merchant.id],
    );
    expect(rows[0]!.webhook_secret.toString('latin1')).not.toContain(own.body.merchant.webhook_secret);

    const changed = await server.call('PATCH', '/v2/wallet/merchant', {
      token: owner.token,
      body: { name: 'Торты и пироги', notification_url: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.merchant).toMatchObject({ name: 'Торты и пироги', notification_url: null });
    const badPatch = await server.call('PATCH', '/v2/wallet/merchant', {
      token: owner.token,
      body: { bank_bic: '044525226' },
    });
    expect(badPatch.body.code).toBe('FIELD_INVALID');
    expect(
      (await server.call('PATCH', '/v2/wallet/merchant', { token: simplified.token, body: {} })).status,
    ).toBe(404);
  });

  it('the queue: any role reads, compliance decides once with a reason, audited', async () => {
    const owner = await person(server, { level: 'full' });
    const made = await apply(owner.token, application());
    const id = made.body.merchant.id;
    const queue = await back.call('GET', '/ops/v1/merchants', { token: support.token });
    expect(queue.status).toBe(200);
    expect(queue.body.results.map((row: { id: string }) => row.id)).toContain(id);

    const forbidden = await back.call('POST', `/ops/v1/merchants/${id}/reject`, {
      token: support.token,
      body: { reason: 'нет сайта' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('OPERATOR_FORBIDDEN');
    const missing = await back.call('POST', `/ops/v1/merchants/${randomUUID()}/approve`, {
      token: compliance.token,
    });
    expect(missing.body.code).toBe('MERCHANT_NOT_FOUND');

    const rejected = await back.call('POST', `/ops/v1/merchants/${id}/reject`, {
      token: compliance.token,
      body: { reason: 'Сайт не открывается' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('rejected');
    const again = await back.call('POST', `/ops/v1/merchants/${id}/approve`, { token: compliance.token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('MERCHANT_NOT_PENDING');
    const own = await server.call('GET', '/v2/wallet/merchant', { token: owner.token });
    expect(own.body.merchant).toMatchObject({ status: 'rejected', reason: 'Сайт не открывается' });
    const audit = await back.call('GET', `/ops/v1/audit?user=${owner.userId}`, { token: compliance.token });
    expect(audit.body.results.map((row: { action: string }) => row.action)).toContain('merchant_reject');
    const rejectedList = await back.call('GET', '/ops/v1/merchants?status=rejected', {
      token: support.token,
    });
    expect(rejectedList.body.results.map((row: { id: string }) => row.id)).toContain(id);
  });

  it('keys: shown once, stored hashed, listed without secrets, revoked at once; a pending merchant is refused', async () => {
    const owner = await person(server, { level: 'full' });
    const id = (await apply(owner.token, application())).body.merchant.id;
    const made = await server.call('POST', '/v2/wallet/merchant/keys', {
      token: owner.token,
      body: { name: 'site' },
    });
    expect(made.status).toBe(200);
    const { secret, id: keyId } = made.body.key;
    expect(secret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    const stored = await server.ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM merchant_keys WHERE encode(secret_hash, 'escape') LIKE '%' || $1 || '%'`,
      [secret.slice(3, 20)],
    );
    expect(Number(stored.rows[0]!.n)).toBe(0);
    const listed = await server.call('GET', '/v2/wallet/merchant/keys', { token: owner.token });
    expect(listed.body.results).toEqual([expect.objectContaining({ id: keyId, name: 'site' })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const api = (authorization: string) =>
      server.call('GET', '/merchant/v1/payments', { headers: { authorization, 'accept-language': 'en' } });
    const pending = await api(basic(id, secret));
    expect(pending.status).toBe(403);
    expect(pending.body).toMatchObject({
      code: 'MERCHANT_NOT_ACTIVE',
      message: 'The merchant account is not approved yet',
    });
    await back.call('POST', `/ops/v1/merchants/${id}/approve`, { token: compliance.token });
    expect((await api(basic(id, secret))).status).toBe(200);
    for (const wrong of [
      basic(id, `sk_${'A'.repeat(43)}`),
      basic(randomUUID(), secret),
      'Basic !!!',
      `Token ${owner.token}`,
    ]) {
      const res = await api(wrong);
      expect(res.status, wrong).toBe(401);
      expect(res.body.code).toBe('MERCHANT_AUTH_INVALID');
    }
    expect(
      (await server.call('DELETE', `/v2/wallet/merchant/keys/${keyId}`, { token: owner.token })).status,
    ).toBe(200);
    expect((await api(basic(id, secret))).status).toBe(401);
    expect(
      (await server.call('DELETE', `/v2/wallet/merchant/keys/${keyId}`, { token: owner.token })).status,
    ).toBe(404);
  });

  describe('the merchant API', () => {
    let shop: TestMerchant;
    let other: TestMerchant;
    beforeAll(async () => {
      shop = await approvedMerchant(server, back, compliance);
      other = await approvedMerchant(server, back, compliance);
    });
    const order = (overrides: Record<string, unknown> = {}) => ({
      amount: '1500.00',
      currency: 'RUB',
      description: 'Торт «Наполеон»',
      order_id: `order-${randomUUID()}`,
      return_url: 'https://cakes.example.ru/done',
      ...overrides,
    });

    it('creates a payment once per Idempotency-Key, and refuses bad amounts', async () => {
      const key = `k-${randomUUID()}`;
      const body = order({ metadata: { cart: '17' } });
      const made = await shop.api('POST', '/merchant/v1/payments', {
        body,
        headers: { 'idempotency-key': key },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toMatchObject({
        status: 'pending',
        amount: '1500.00',
        currency: 'RUB',
        metadata: { cart: '17' },
        refunded_amount: '0.00',
        payer: null,
      });
      expect(made.body.confirmation_url).toMatch(new RegExp(`/pay/m/${made.body.id}$`));
      expect(Date.parse(made.body.expires_at) - clock.now().getTime()).toBe(86_400_000);
      const repeat = await shop.api('POST', '/merchant/v1/payments', {
        body,
        headers: { 'idempotency-key': key },
      });
      expect(repeat.body.id).toBe(made.body.id);
      const conflict = await shop.api('POST', '/merchant/v1/payments', {
        body: order(),
        headers: { 'idempotency-key': key },
      });
      expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
      // Another merchant's same key is its own.
      const theirs = await other.api('POST', '/merchant/v1/payments', {
        body,
        headers: { 'idempotency-key': key },
      });
      expect(theirs.status).toBe(200);
      expect(theirs.body.id).not.toBe(made.body.id);

      for (const [amount, code] of [
        ['0.999', 'AMOUNT_TOO_PRECISE'],
        ['0.99', 'MERCHANT_AMOUNT_TOO_SMALL'],
        ['-5', 'AMOUNT_INVALID'],
        ['abc', 'AMOUNT_INVALID'],
      ] as const) {
        const res = await shop.api('POST', '/merchant/v1/payments', { body: order({ amount }) });
        expect(res.status, amount).toBe(400);
        expect(res.body.code, amount).toBe(code);
      }
      const badUrl = await shop.api('POST', '/merchant/v1/payments', {
        body: order({ return_url: 'javascript:alert(1)' }),
      });
      expect(badUrl.body.code).toBe('FIELD_INVALID');
      const dollars = await shop.api('POST', '/merchant/v1/payments', { body: order({ currency: 'USD' }) });
      expect(dollars.body.code).toBe('FIELD_INVALID');
    });

    it("reads and pages its own payments; another merchant's is not found", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        ids.push((await shop.api('POST', '/merchant/v1/payments', { body: order() })).body.id);
      }
      const one = await shop.api('GET', `/merchant/v1/payments/${ids[0]}`);
      expect(one.body.id).toBe(ids[0]);
      const foreign = await other.api('GET', `/merchant/v1/payments/${ids[0]}`);
      const missing = await other.api('GET', `/merchant/v1/payments/${randomUUID()}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
      const cancelForeign = await other.api('POST', `/merchant/v1/payments/${ids[0]}/cancel`);
      expect(cancelForeign.status).toBe(404);

      const first = await shop.api('GET', '/merchant/v1/payments?limit=2');
      expect(first.body.results.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
      const second = await shop.api('GET', `/merchant/v1/payments?limit=2&cursor=${first.body.next}`);
      expect(second.body.results[0].id).toBe(ids[0]);
      const forged = await shop.api('GET', '/merchant/v1/payments?cursor=AAAA');
      expect(forged.status).toBe(400);
      const theirs = await other.api('GET', '/merchant/v1/payments?limit=100');
      expect(theirs.body.results.map((p: { id: string }) => p.id)).not.toContain(ids[0]);
      // The dashboard reads the same pages with the owner's token.
      const dashboard = await server.call('GET', '/v2/wallet/merchant/payments?limit=2', {
        token: shop.owner.token,
      });
      expect(dashboard.body.results.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
      const nobody = await server.call('GET', '/v2/wallet/merchant/payments', {
        token: (await person(server)).token,
      });
      expect(nobody.body.code).toBe('MERCHANT_NOT_FOUND');
    });

    it('cancels while pending; a repeat answers the same; an expired one cannot be cancelled', async () => {
      const made = await shop.api('POST', '/merchant/v1/payments', { body: order() });
      const canceled = await shop.api('POST', `/merchant/v1/payments/${made.body.id}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.body.status).toBe('canceled');
      expect((await shop.api('POST', `/merchant/v1/payments/${made.body.id}/cancel`)).body.status).toBe(
        'canceled',
      );

      const short = await shop.api('POST', '/merchant/v1/payments', { body: order({ expires_in: 60 }) });
      clock.advance(61_000);
      expect((await shop.api('GET', `/merchant/v1/payments/${short.body.id}`)).body.status).toBe('expired');
      const late = await shop.api('POST', `/merchant/v1/payments/${short.body.id}/cancel`);
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('MERCHANT_PAYMENT_CLOSED');
    });
  });
});
