/**
 * Top-up end to end through the API and the sandbox payments provider: the order, the hosted payment
 * page's form, the signed webhook, the ledger credit, the status call; declines, bad cards, bad
 * amounts, limits, repeated webhooks and idempotency keys, lost callbacks. The ledger's invariants
 * (zero sum per currency among them) are checked after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findTransfer, systemAccount, transfersByReference } from '../src/ledger/index.ts';
import { listNotifications } from '../src/modules/notifications/service.ts';
import sandboxPayRoutes from '../src/modules/sandbox-pay/routes.ts';
import { creditKey } from '../src/modules/topup/service.ts';
import { cardDigits, luhnValid } from '../src/providers/payments/cards.ts';
import type { PaymentsProvider } from '../src/providers/payments/payments-provider.ts';
import { SandboxPaymentsProvider } from '../src/providers/payments/sandbox.ts';
import { fund, ledgerViolations } from './fund.ts';
import {
  databaseLabel,
  isErrorShape,
  startTestServer,
  type TestServer,
  usePostgres,
  withLevels,
} from './helpers.ts';
import {
  balance,
  countRows,
  newUser,
  orderStatus,
  paymentWebhookBody,
  sendSigned,
  started,
  submitCard,
  topUp,
} from './topup-helpers.ts';

const PAYS = '4111 1111 1111 1111';
const DECLINED = '4000 0000 0000 0002';

describe(`top-up (${databaseLabel})`, () => {
  let server: TestServer;
  let sandbox: SandboxPaymentsProvider;
  beforeAll(async () => {
    server = await startTestServer();
    sandbox = server.ctx.payments as SandboxPaymentsProvider;
  });
  afterAll(() => server.close());
  afterEach(async () => {
    expect(await ledgerViolations(server.ctx.db)).toEqual([]);
  });

  async function paymentOf(order: string) {
    const { rows } = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM sandbox_payments WHERE order_id = $1',
      [order],
    );
    return (await sandbox.payment(rows[0]!.id))!;
  }

  it('uses the sandbox provider by default', () => {
    expect(server.ctx.payments.id).toBe('sandbox');
    expect(server.ctx.payments).toBeInstanceOf(SandboxPaymentsProvider);
  });

  it('full journey: order, payment page, card, signed webhook, credit once, status complete', async () => {
    const { token, userId } = await newUser(server);
    const { order, url, body } = await started(server, token, '1500.00');
    expect(body).toMatchObject({
      status: 'success',
      order,
      url: expect.stringMatching(/^\/sandbox\/pay\/[0-9a-f-]{36}$/),
    });
    expect(body.message.length).toBeGreaterThan(0);
    expect((await orderStatus(server, token, order)).body).toEqual({
      status: 'pending',
      order,
      amount: '1500.00',
      currency_code: 'RUB',
    });

    const page = await server.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(page.body).toContain('E-Wallet');
    expect(page.body).toContain('1\u00a0500,00\u00a0₽');
    expect(page.body).toContain('name="card"');
    expect(page.body).toContain(`action="${url}"`);
    expect(page.body).not.toMatch(/<script|style=|<style/i);
    expect(page.body).toContain('href="/sandbox/assets/sandbox.css"');
    const css = await server.app.inject({ method: 'GET', url: '/sandbox/assets/sandbox.css' });
    expect(css.statusCode).toBe(200);

    const paid = await submitCard(server, url, { card: PAYS, action: 'pay' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/wallet/payments/finish?order=${order}`);

    expect(await balance(server, userId)).toBe(150_000n);
    expect((await orderStatus(server, token, order)).body).toMatchObject({
      status: 'complete',
      order,
      amount: '1500.00',
    });
    const credits = await transfersByReference(server.ctx.db, 'topup_order', order);
    expect(credits).toHaveLength(1);
    const clearing = await systemAccount(server.ctx.db, 'RUB', 'topup_clearing');
    expect(credits[0]).toMatchObject({
      kind: 'topup',
      amount: 150_000n,
      debitAccountId: clearing.id,
      status: 'posted',
    });
    // The credit's id is made of its key, so a second credit of the order would be the same transfer.
    const keyed = await server.ctx.db.query<{ id: string }>('SELECT ledger_key_id($1) AS id', [
      creditKey(order),
    ]);
    expect(credits[0]!.id).toBe(keyed.rows[0]!.id);

    // Only the last four digits of the card are kept anywhere.
    const payment = await paymentOf(order);
    expect(payment.card_last4).toBe('1111');
    const { rows } = await server.ctx.db.query<{ dump: string }>(
      `SELECT (SELECT coalesce(string_agg(s::text, ' '), '') FROM sandbox_payments s)
        || (SELECT coalesce(string_agg(o::text, ' '), '') FROM topup_orders o) AS dump`,
    );
    expect(rows[0]!.dump).not.toContain('4111111111111111');
    expect(rows[0]!.dump).not.toContain('41111111');

    // A second submit (the back button) and the page afterwards change nothing.
    const again = await submitCard(server, url, { card: PAYS, action: 'pay' });
    expect(again.statusCode).toBe(303);
    const decided = await server.app.inject({ method: 'GET', url });
    expect(decided.body).toContain('Платёж проведён');
    expect(decided.body).not.toContain('name="card"');
    expect(await balance(server, userId)).toBe(150_000n);

    // The person is told in their notifications.
    const notes = await listNotifications(server.ctx.db, userId, { limit: 20, language: 'ru' });
    expect(notes.results.map((n) => n.message)).toContain('Кошелёк пополнен на 1\u00a0500,00\u00a0₽');
  });

  it('declined test card: the order fails and no money moves', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '100.00');
    const transfersBefore = await countRows(server, 'ledger_transfers');
    const res = await submitCard(server, url, { card: DECLINED, action: 'pay' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/wallet/payments/finish?order=${order}`);
    expect((await orderStatus(server, token, order)).body.status).toBe('failed');
    expect(await balance(server, userId)).toBe(0n);
    expect(await countRows(server, 'ledger_transfers')).toBe(transfersBefore);
    const payment = await paymentOf(order);
    expect(payment).toMatchObject({
      status: 'canceled',
      card_last4: '0002',
      cancellation_reason: 'card_declined',
    });
    const page = await server.app.inject({ method: 'GET', url });
    expect(page.body).toContain('Платёж отклонён');
  });

  it('the payer cancels on the page: the order fails', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '100.00');
    const res = await submitCard(server, url, { action: 'decline' });
    expect(res.statusCode).toBe(303);
    expect((await orderStatus(server, token, order)).body.status).toBe('failed');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('any other Luhn-valid card pays', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '12.34');
    const res = await submitCard(server, url, { card: '5555-5555-5555-4444', action: 'pay' });
    expect(res.statusCode).toBe(303);
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect(await balance(server, userId)).toBe(1234n);
    expect((await paymentOf(order)).card_last4).toBe('4444');
  });

  it('an invalid card shows an error on the page and decides nothing', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '100.00');
    for (const card of ['4111 1111 1111 1112', '1234', '', 'abcd efgh ijkl mnop', '4'.repeat(25)]) {
      const res = await submitCard(server, url, { card, action: 'pay' });
      expect(res.statusCode, card).toBe(400);
      expect(res.body).toContain('Проверьте номер карты');
      expect(res.body).toContain('name="card"');
      // The typed number is not echoed back.
      if (card.length > 4) expect(res.body).not.toContain(card);
    }
    const noAction = await submitCard(server, url, { card: PAYS });
    expect(noAction.statusCode).toBe(400);
    expect((await paymentOf(order)).status).toBe('pending');
    expect((await orderStatus(server, token, order)).body.status).toBe('pending');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('an unknown payment page is 404', async () => {
    for (const url of ['/sandbox/pay/00000000-0000-4000-8000-000000000000', '/sandbox/pay/nope']) {
      expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await submitCard(server, url, { card: PAYS, action: 'pay' })).statusCode).toBe(404);
    }
  });

  it('a repeated Idempotency-Key answers the first answer and creates nothing new', async () => {
    const { token, userId } = await newUser(server);
    const first = await started(server, token, '250.00', 'topup-key-0001');
    const orders = await countRows(server, 'topup_orders');
    const payments = await countRows(server, 'sandbox_payments');
    const again = await topUp(server, token, '250.00', { key: 'topup-key-0001' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // The same amount written differently is the same request.
    expect((await topUp(server, token, '250', { key: 'topup-key-0001' })).body).toEqual(first.body);
    expect(await countRows(server, 'topup_orders')).toBe(orders);
    expect(await countRows(server, 'sandbox_payments')).toBe(payments);
    const conflict = await topUp(server, token, '251.00', { key: 'topup-key-0001' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
    // Another user's same key is their own.
    const other = await newUser(server);
    const theirs = await started(server, other.token, '250.00', 'topup-key-0001');
    expect(theirs.order).not.toBe(first.order);

    await submitCard(server, first.url, { card: PAYS, action: 'pay' });
    expect((await topUp(server, token, '250.00', { key: 'topup-key-0001' })).body).toEqual(first.body);
    expect(await balance(server, userId)).toBe(25_000n);
    const bad = await topUp(server, token, '1.00', { key: 'short' });
    expect(bad.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('repeated and late webhooks credit once', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '300.00');
    await submitCard(server, url, { card: PAYS, action: 'pay' });
    const payment = await paymentOf(order);
    for (let i = 0; i < 3; i++) {
      const res = await sendSigned(server, sandbox.signedWebhook(payment).body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
    }
    // A day later, freshly signed.
    server.clock.advance(24 * 60 * 60 * 1000);
    expect((await sendSigned(server, sandbox.signedWebhook(payment).body)).status).toBe(200);
    expect(await balance(server, userId)).toBe(30_000n);
    expect(await transfersByReference(server.ctx.db, 'topup_order', order)).toHaveLength(1);
  });

  it('a bad signature is refused and changes nothing', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '300.00');
    const payment_id = url.split('/').pop()!;
    const raw = paymentWebhookBody(server, {
      event: 'payment.succeeded',
      payment_id,
      order,
      amount: '300.00',
    });
    const attempts = [
      await sendSigned(server, raw, { secret: 'another-secret-of-enough-length' }),
      await sendSigned(server, raw, { header: 't=1,v1=zz' }),
      await server.call('POST', '/v2/wallet/webhooks/payments', { body: raw }),
      // Signed, then changed in transit.
      await server.call('POST', '/v2/wallet/webhooks/payments', {
        body: raw.replace('300.00', '3000.00'),
        headers: {
          'x-signature': (await import('../src/providers/signature.ts')).signPayload(
            server.config.WEBHOOK_SECRET,
            raw,
            server.clock.now(),
          ),
        },
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('WEBHOOK_SIGNATURE_INVALID');
      expect(isErrorShape(res.body)).toBe(true);
    }
    // A stale signature (captured and replayed later).
    const stale = await sendSigned(server, raw, {
      header: (await import('../src/providers/signature.ts')).signPayload(
        server.config.WEBHOOK_SECRET,
        raw,
        new Date(server.clock.now().getTime() - 10 * 60 * 1000),
      ),
    });
    expect(stale.status).toBe(401);
    expect((await orderStatus(server, token, order)).body.status).toBe('pending');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('a signed report that does not match the order changes nothing', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '300.00');
    const payment_id = url.split('/').pop()!;
    const wrongAmount = await sendSigned(
      server,
      paymentWebhookBody(server, { event: 'payment.succeeded', payment_id, order, amount: '3000.00' }),
    );
    expect(wrongAmount.status).toBe(400);
    const wrongPayment = await sendSigned(
      server,
      paymentWebhookBody(server, {
        event: 'payment.succeeded',
        payment_id: '00000000-0000-4000-8000-000000000001',
        order,
        amount: '300.00',
      }),
    );
    expect(wrongPayment.status).toBe(400);
    const unknownOrder = await sendSigned(
      server,
      paymentWebhookBody(server, {
        event: 'payment.succeeded',
        payment_id,
        order: '00000000-0000-4000-8000-000000000002',
        amount: '300.00',
      }),
    );
    expect(unknownOrder.status).toBe(404);
    expect(unknownOrder.body.code).toBe('ORDER_NOT_FOUND');
    expect((await orderStatus(server, token, order)).body.status).toBe('pending');
    expect(await balance(server, userId)).toBe(0n);
  });

  it('out of order: a success after a cancellation credits once; a cancellation after success is ignored', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '400.00');
    const payment_id = url.split('/').pop()!;
    const canceled = paymentWebhookBody(server, {
      event: 'payment.canceled',
      payment_id,
      order,
      amount: '400.00',
    });
    const succeeded = paymentWebhookBody(server, {
      event: 'payment.succeeded',
      payment_id,
      order,
      amount: '400.00',
    });
    expect((await sendSigned(server, canceled)).status).toBe(200);
    expect((await orderStatus(server, token, order)).body.status).toBe('failed');
    expect(await balance(server, userId)).toBe(0n);
    expect((await sendSigned(server, succeeded)).status).toBe(200);
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect(await balance(server, userId)).toBe(40_000n);
    expect((await sendSigned(server, canceled)).status).toBe(200);
    expect((await sendSigned(server, succeeded)).status).toBe(200);
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect(await balance(server, userId)).toBe(40_000n);
  });

  it('each bad amount and currency is refused with its code, creating nothing', async () => {
    const { token } = await newUser(server);
    const orders = await countRows(server, 'topup_orders');
    const cases: [string, string, string, number][] = [
      ['abc', 'RUB', 'AMOUNT_INVALID', 400],
      ['1.5.0', 'RUB', 'AMOUNT_INVALID', 400],
      ['01.00', 'RUB', 'AMOUNT_INVALID', 400],
      ['-5.00', 'RUB', 'AMOUNT_INVALID', 400],
      ['1e3', 'RUB', 'AMOUNT_INVALID', 400],
      ['1.001', 'RUB', 'AMOUNT_TOO_PRECISE', 400],
      ['0', 'RUB', 'AMOUNT_NOT_POSITIVE', 400],
      ['0.00', 'RUB', 'AMOUNT_NOT_POSITIVE', 400],
      ['10000000000000.01', 'RUB', 'AMOUNT_TOO_LARGE', 400],
      ['100.00', 'USD', 'CURRENCY_NOT_ALLOWED', 400],
      ['100.00', 'EUR', 'CURRENCY_NOT_ALLOWED', 400],
      ['100.00', 'XXX', 'FIELD_INVALID', 400],
    ];
    for (const [amount, currency, code, status] of cases) {
      const res = await topUp(server, token, amount, { currency });
      expect(res.status, `${amount} ${currency}`).toBe(status);
      expect(res.body.code, `${amount} ${currency}`).toBe(code);
      expect(isErrorShape(res.body)).toBe(true);
    }
    const precise = await topUp(server, token, '1.001');
    expect(precise.body.message).toBe('Не больше 2 знаков после запятой');
    const missing = await server.call('POST', '/v2/wallet/top-up', { token, body: { amount: '1.00' } });
    expect(missing.status).toBe(400);
    const unauthenticated = await server.call('POST', '/v2/wallet/top-up', {
      body: { amount: '1.00', currency_code: 'RUB' },
    });
    expect(unauthenticated.status).toBe(401);
    expect(await countRows(server, 'topup_orders')).toBe(orders);
  });

  it('anonymous balance cap: 15 000 RUB at the cap passes, a kopeck over is refused; open orders count', async () => {
    const atCap = await newUser(server);
    await started(server, atCap.token, '15000.00');
    const over = await newUser(server);
    const refused = await topUp(server, over.token, '15000.01');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LIMIT_BALANCE');
    expect(refused.body.message).toContain('15\u00a0000,00\u00a0₽');

    const { token, userId } = await newUser(server);
    await fund(server.ctx, userId, 1_400_000n);
    const open = await started(server, token, '1000.00');
    // The open order reserves its room.
    expect((await topUp(server, token, '0.01')).body.code).toBe('LIMIT_BALANCE');
    await submitCard(server, open.url, { card: PAYS, action: 'pay' });
    expect(await balance(server, userId)).toBe(1_500_000n);
    expect((await topUp(server, token, '0.01')).body.code).toBe('LIMIT_BALANCE');

    const other = await newUser(server);
    await fund(server.ctx, other.userId, 1_400_000n);
    const declined = await started(server, other.token, '1000.00');
    await submitCard(server, declined.url, { card: DECLINED, action: 'pay' });
    // A failed order frees its room.
    expect((await topUp(server, other.token, '1000.00')).status).toBe(200);
  });

  it('a top-up is refused when the level does not allow it', async () => {
    const user = await newUser(server);
    const orders = await countRows(server, 'topup_orders');
    // The rules are read per call from the configuration: switch top-ups off for the anonymous level.
    const saved = server.ctx.config.levelRulesJson;
    server.ctx.config.levelRulesJson = withLevels(
      server.ctx.config,
      '{"anonymous":{"topup":false}}',
    ).levelRulesJson;
    try {
      const res = await topUp(server, user.token, '10.00');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('TOPUP_NOT_ALLOWED');
    } finally {
      server.ctx.config.levelRulesJson = saved;
    }
    expect(await countRows(server, 'topup_orders')).toBe(orders);
  });

  it("status: another user's order is as absent as a missing one", async () => {
    const alice = await newUser(server);
    const bob = await newUser(server);
    const { order } = await started(server, alice.token, '10.00');
    const theirs = await orderStatus(server, bob.token, order);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('ORDER_NOT_FOUND');
    const missing = await orderStatus(server, bob.token, '00000000-0000-4000-8000-000000000003');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(theirs.body);
    expect((await orderStatus(server, bob.token, 'not-an-id')).status).toBe(400);
  });

  it('a lost callback: the status call fetches the provider and credits once', async () => {
    const { token, userId } = await newUser(server);
    const { order, url } = await started(server, token, '700.00');
    const sent: number[] = [];
    sandbox.setTransport(async () => {
      sent.push(1);
      return 0; // the network lost it
    });
    try {
      expect((await submitCard(server, url, { card: PAYS, action: 'pay' })).statusCode).toBe(303);
    } finally {
      sandboxPayRoutesTransport();
    }
    expect(sent).toHaveLength(1);
    expect(await balance(server, userId)).toBe(0n);
    const { rows } = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM topup_orders WHERE id = $1',
      [order],
    );
    expect(rows[0]!.status).toBe('pending');
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect((await orderStatus(server, token, order)).body.status).toBe('complete');
    expect(await balance(server, userId)).toBe(70_000n);
    // The webhook arriving late after all moves nothing.
    expect((await sendSigned(server, sandbox.signedWebhook(await paymentOf(order)).body)).status).toBe(200);
    expect(await balance(server, userId)).toBe(70_000n);
  });

  it('a provider outage answers PROVIDER_UNAVAILABLE; a retry with the same key gets the same order a payment', async () => {
    const { token, userId } = await newUser(server);
    const real = server.ctx.payments;
    let calls = 0;
    const failing: PaymentsProvider = {
      id: 'sandbox',
      create: async () => {
        calls += 1;
        throw new Error('connect ECONNREFUSED');
      },
      fetch: (id) => real.fetch(id),
    };
    server.ctx.payments = failing;
    let res: Awaited<ReturnType<typeof topUp>>;
    try {
      res = await topUp(server, token, '50.00', { key: 'outage-key-0001' });
    } finally {
      server.ctx.payments = real;
    }
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PROVIDER_UNAVAILABLE');
    expect(calls).toBe(1);
    const retry = await started(server, token, '50.00', 'outage-key-0001');
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM topup_orders WHERE user_id = $1',
      [userId],
    );
    expect(rows[0]!.n).toBe(1);
    await submitCard(server, retry.url, { card: PAYS, action: 'pay' });
    expect(await balance(server, userId)).toBe(5_000n);

    // Without a retry, an order that never got a payment fails after the reservation window.
    server.ctx.payments = failing;
    try {
      res = await topUp(server, token, '60.00');
    } finally {
      server.ctx.payments = real;
    }
    expect(res.status).toBe(503);
    const { rows: stuck } = await server.ctx.db.query<{ id: string }>(
      `SELECT id FROM topup_orders WHERE user_id = $1 AND status = 'pending'`,
      [userId],
    );
    expect(stuck).toHaveLength(1);
    expect((await orderStatus(server, token, stuck[0]!.id)).body.status).toBe('pending');
    // The reservation's length is the database's to say (limits_reservation in limits.sql).
    const reservation = await server.ctx.db.query<{ ms: number }>(
      'SELECT extract(epoch FROM limits_reservation()) * 1000 AS ms',
    );
    server.clock.advance(Number(reservation.rows[0]!.ms) + 1000);
    expect((await orderStatus(server, token, stuck[0]!.id)).body.status).toBe('failed');
  });

  it('a crash between the provider and our database: the callback still finds and credits the order', async () => {
    const { token, userId } = await newUser(server);
    const real = server.ctx.payments;
    // The provider made the payment but its answer never reached the order (as if the process died).
    server.ctx.payments = {
      id: 'sandbox',
      create: async (input) => {
        await real.create(input);
        throw new Error('socket hang up');
      },
      fetch: (id) => real.fetch(id),
    };
    try {
      expect((await topUp(server, token, '75.00', { key: 'crash-key-0001' })).status).toBe(503);
    } finally {
      server.ctx.payments = real;
    }
    const { rows } = await server.ctx.db.query<{ id: string; provider_payment_id: string | null }>(
      'SELECT id, provider_payment_id FROM topup_orders WHERE user_id = $1',
      [userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.provider_payment_id).toBeNull();
    const order = rows[0]!.id;
    const payment = await paymentOf(order);
    // The person cannot have the url yet, but the provider's callback (or a later pay) must still credit.
    const res = await submitCard(server, `/sandbox/pay/${payment.id}`, { card: PAYS, action: 'pay' });
    expect(res.statusCode).toBe(303);
    expect(await balance(server, userId)).toBe(7_500n);
    const after = await server.ctx.db.query<{ status: string; provider_payment_id: string }>(
      'SELECT status, provider_payment_id FROM topup_orders WHERE id = $1',
      [order],
    );
    expect(after.rows[0]).toEqual({ status: 'complete', provider_payment_id: payment.id });
    // The retry with the same key answers the same order with the same payment.
    const retry = await started(server, token, '75.00', 'crash-key-0001');
    expect(retry.order).toBe(order);
    expect(retry.url).toBe(`/sandbox/pay/${payment.id}`);
  });

  it('the sandbox page does not exist in production', () => {
    const registered: string[] = [];
    const fakeApp = {
      get: (path: string) => registered.push(path),
      post: (path: string) => registered.push(path),
    };
    sandboxPayRoutes(fakeApp as never, { ...server.ctx, config: { ...server.config, production: true } });
    expect(registered).toEqual([]);
  });

  it('card checks: Luhn and length', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(cardDigits('4111 1111 1111 1111')).toBe('4111111111111111');
    expect(cardDigits('411111111111')).toBeNull();
    expect(cardDigits('4111 1111 1111 1111 0000')).toBeNull();
  });

  /** Puts back the in-process webhook transport the sandbox page module installs at boot. */
  function sandboxPayRoutesTransport(): void {
    sandbox.setTransport(async ({ path, headers, body }) => {
      const response = await server.app.inject({ method: 'POST', url: path, headers, payload: body });
      return response.statusCode;
    });
  }

  describe.runIf(usePostgres)('concurrency (PostgreSQL)', () => {
    it('concurrent duplicate webhooks credit once', async () => {
      const { token, userId } = await newUser(server);
      const { order, url } = await started(server, token, '800.00');
      const payment_id = url.split('/').pop()!;
      const raw = paymentWebhookBody(server, {
        event: 'payment.succeeded',
        payment_id,
        order,
        amount: '800.00',
      });
      const results = await Promise.all(Array.from({ length: 12 }, () => sendSigned(server, raw)));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(await balance(server, userId)).toBe(80_000n);
      const credits = await transfersByReference(server.ctx.db, 'topup_order', order);
      expect(credits).toHaveLength(1);
      expect(await findTransfer(server.ctx.db, credits[0]!.id)).not.toBeNull();
    });

    it('concurrent repeats of one Idempotency-Key make one order and one payment', async () => {
      const { token, userId } = await newUser(server);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => topUp(server, token, '90.00', { key: 'concurrent-key-1' })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
      const { rows } = await server.ctx.db.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM topup_orders WHERE user_id = $1',
        [userId],
      );
      expect(rows[0]!.n).toBe(1);
    });

    it('concurrent orders cannot together pass the balance cap', async () => {
      const { token, userId } = await newUser(server);
      const results = await Promise.all(Array.from({ length: 6 }, () => topUp(server, token, '5000.00')));
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(3);
      expect(results.filter((r) => r.body.code === 'LIMIT_BALANCE')).toHaveLength(3);
      for (const r of ok) await submitCard(server, r.body.url, { card: PAYS, action: 'pay' });
      expect(await balance(server, userId)).toBe(1_500_000n);
    });
  });
});
