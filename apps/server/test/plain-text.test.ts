/**
 * One plain-text rule for every free text (issue 53, finding 9), as the attack was: a direction override
 * (U+202E) or another direction control in a category's, goal's or template's name, a support message, a
 * request's comment, a report's reason or an operator's reason was kept and shown to operators. Each is
 * now a 400 FIELD_INVALID naming the field, in the person's language, and nothing is stored; so are the
 * merchants' and СБП's free texts, which came after (a payment's metadata among them).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, type TestServer, uniquePhone } from './helpers.ts';
import { application, approvedMerchant } from './merchant-helpers.ts';
import { type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { type Person, person } from './withdrawal-helpers.ts';

const RLO = '\u202e';
const DIRECTION_CONTROLS = ['\u202e', '\u202d', '\u2066', '\u2069', '\u200f', '\u061c'];

describe(`free text refuses direction and control characters (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let compliance: TestOperator;
  let ivan: Person;
  beforeAll(async () => {
    server = await startTestServer();
    back = await startOps(server);
    compliance = await operator(server, back, 'admin');
    ivan = await person(server, { rub: 100_000n });
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });

  const stored = async () => {
    const { rows } = await server.ctx.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM custom_categories) + (SELECT count(*) FROM savings_goals)
         + (SELECT count(*) FROM payment_templates) + (SELECT count(*) FROM payment_requests)
         + (SELECT count(*) FROM support_messages) + (SELECT count(*) FROM operation_reports)
         + (SELECT count(*) FROM ops_refunds) + (SELECT count(*) FROM fraud_list) AS n`,
    );
    return rows[0]!.n;
  };
  const refused = (answer: { status: number; body: any }, what: string) => {
    expect(answer.status, what).toBe(400);
    expect(answer.body, what).toMatchObject({ status: 'error', code: 'FIELD_INVALID' });
    expect(answer.body.message, what).toMatch(/^Проверьте поле «[А-Яа-яЁё -]+»$/);
  };

  it("every person's free text refuses a direction override, as a registration name does", async () => {
    const goal = await server.call('POST', '/v2/wallet/goals', {
      token: ivan.token,
      body: { name: 'Отпуск', target_amount: '1000', currency_code: 'RUB' },
    });
    expect(goal.status, JSON.stringify(goal.body)).toBe(201);
    const before = await stored();
    const calls: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/v2/wallet/categories', { name: `Еда${RLO}exe.gnp` }],
      ['POST', '/v2/wallet/goals', { name: `Машина${RLO}`, target_amount: '1000', currency_code: 'RUB' }],
      ['PATCH', `/v2/wallet/goals/${goal.body.id}`, { name: `Отпуск${RLO}` }],
      ['POST', '/v2/wallet/template', { name: `Мама${RLO}`, phone: uniquePhone(), currency_code: 'RUB' }],
      ['POST', '/v2/wallet/request', { amount: '10', currency_code: 'RUB', comment: `за обед${RLO}` }],
      ['POST', '/v2/wallet/support/messages', { text: `Помогите${RLO}moc.knab` }],
      ['POST', `/v2/wallet/transaction/${randomUUID()}/report`, { reason: `не я${RLO}` }],
      [
        'POST',
        '/v2/wallet/auth/passkeys/register',
        { challenge_id: randomUUID(), response: webAuthnShape(), name: `Ключ${RLO}` },
      ],
    ];
    for (const [method, url, body] of calls)
      refused(await server.call(method, url, { token: ivan.token, body }), `${method} ${url}`);
    // Every direction control, not only the override, in a category's name.
    for (const mark of DIRECTION_CONTROLS)
      refused(
        await server.call('POST', '/v2/wallet/categories', {
          token: ivan.token,
          body: { name: `а${mark}б` },
        }),
        `U+${mark.codePointAt(0)!.toString(16)}`,
      );
    expect(await stored()).toBe(before);
    // In English, the field named in English.
    const english = await server.call('POST', '/v2/wallet/categories', {
      token: ivan.token,
      body: { name: `Food${RLO}` },
      headers: { 'accept-language': 'en' },
    });
    expect(english.status).toBe(400);
    expect(english.body.message).toMatch(/^Please check the field “[A-Za-z ]+”$/);
    // Right-to-left letters themselves, emoji and quotes stay welcome.
    for (const name of ['שלום', 'مرحبا', 'Кафе «Ёлка» 🎄'])
      expect(
        (await server.call('POST', '/v2/wallet/categories', { token: ivan.token, body: { name } })).status,
        name,
      ).toBe(201);
  });

  it("an operator's reason and reply refuse them too", async () => {
    const before = await stored();
    const { rows } = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM ledger_transfers ORDER BY created_at LIMIT 1',
    );
    const calls: Array<[string, Record<string, unknown>]> = [
      [`/ops/v1/users/${ivan.userId}/freeze`, { reason: `звонок${RLO}` }],
      ['/ops/v1/refunds', { transfer_id: rows[0]!.id, amount: '1.00', reason: `ошибка${RLO}` }],
      ['/ops/v1/fraud-list', { kind: 'phone', value: uniquePhone(), reason: `мошенник${RLO}` }],
      [`/ops/v1/holds/${randomUUID()}/refuse`, { reason: `не он${RLO}` }],
      [`/ops/v1/support/conversations/${randomUUID()}/messages`, { text: `Ответ${RLO}` }],
    ];
    for (const [url, body] of calls)
      refused(await back.call('POST', url, { token: compliance.token, body }), url);
    expect(await stored()).toBe(before);
    const frozen = await server.ctx.db.query('SELECT frozen_at FROM users WHERE id = $1', [ivan.userId]);
    expect(frozen.rows[0]).toEqual({ frozen_at: null });
  });
});

describe(`plain text on the merchants' and СБП's free text (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  beforeAll(async () => {
    server = await startTestServer();
    back = await startOps(server);
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });

  it('a merchant’s names, descriptions, metadata and reasons and an СБП comment refuse a direction override', async () => {
    const shop = await approvedMerchant(server, back, await operator(server, back, 'compliance'));
    const payments = async () =>
      (await server.ctx.db.query('SELECT id FROM merchant_payments WHERE merchant_id = $1', [shop.id])).rows
        .length;
    const payment = {
      amount: '10.00',
      currency: 'RUB',
      description: 'Торт',
      order_id: 'o-1',
      return_url: 'https://a.ru/',
    };
    const owner = { token: shop.owner.token };
    const answers: Array<[string, { status: number; body: any }]> = [
      [
        'apply',
        await server.call('POST', '/v2/wallet/merchant', {
          ...owner,
          body: application({ name: `Торты${RLO}` }),
        }),
      ],
      [
        'key',
        await server.call('POST', '/v2/wallet/merchant/keys', { ...owner, body: { name: `ключ${RLO}` } }),
      ],
      [
        'description',
        await shop.api('POST', '/merchant/v1/payments', { body: { ...payment, description: `Торт${RLO}` } }),
      ],
      [
        'metadata',
        await shop.api('POST', '/merchant/v1/payments', {
          body: { ...payment, metadata: { note: `заказ${RLO}moc` } },
        }),
      ],
      [
        'metadata key',
        await shop.api('POST', '/merchant/v1/payments', {
          body: { ...payment, metadata: { [`n${RLO}`]: 'x' } },
        }),
      ],
      [
        'refund',
        await shop.api('POST', '/merchant/v1/refunds', {
          body: { payment_id: randomUUID(), amount: '1.00', reason: `брак${RLO}` },
        }),
      ],
      [
        'sbp',
        await server.call('POST', '/v2/wallet/sbp/transfer', {
          ...owner,
          body: {
            phone: uniquePhone(),
            bank_id: '100000000004',
            amount: '1',
            pin: '1234',
            comment: `за обед${RLO}`,
          },
        }),
      ],
    ];
    for (const [what, answer] of answers) {
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ code: 'FIELD_INVALID' });
    }
    expect(await payments()).toBe(0);
  });
});

/** A credential's shape as a browser sends it: valid for the contract, signed by nothing. */
function webAuthnShape() {
  return {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
  };
}
