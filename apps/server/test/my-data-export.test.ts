/**
 * One's own data is everything (docs/decisions/closing-and-export.md): beside the profile and the
 * operations, the export carries the savings goals, the budgets, the trusted person both ways and the
 * support chat, in JSON and in the PDF, whose phones and devices read as a person would write them.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUser } from './auth-helpers.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';
import { PIN, person } from './withdrawal-helpers.ts';

const CHROME_ON_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** The text pdftotext (poppler-utils) reads from a PDF. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

describe(`the data export's completeness (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('carries goals, budgets, the trusted person both ways and the support chat, in JSON and PDF', async () => {
    const { phone, token } = await registeredUser(server, {
      pin: PIN,
      headers: { 'user-agent': CHROME_ON_ANDROID },
    });
    const { rows } = await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [
      phone,
    ]);
    const userId = rows[0]!.id;
    await server.ctx.db.query(`UPDATE users SET identification_level = 'full' WHERE id = $1`, [userId]);
    await fund(server.ctx, userId, 500_000n);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, language = 'ru') =>
      server.call(method, url, {
        token,
        headers: { 'idempotency-key': `test-${randomUUID()}`, 'accept-language': language },
        ...(body !== undefined ? { body } : {}),
      });

    const goal = await call('POST', '/v2/wallet/goals', {
      name: 'Велосипед',
      target_amount: '30000',
      currency_code: 'RUB',
    });
    expect(goal.status, JSON.stringify(goal.body)).toBe(201);
    const deposit = await call('POST', `/v2/wallet/goals/${goal.body.id}/deposit`, {
      amount: '1000',
      pin: PIN,
    });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    const budget = await call('PUT', '/v2/wallet/budgets', {
      category: 'people',
      amount: '7000',
      currency_code: 'RUB',
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(200);
    const olga = await person(server, { level: 'full' });
    const named = await call('PUT', '/v2/wallet/trusted-person', {
      phone: olga.phone,
      threshold: '5000',
      new_payees: false,
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    // Someone else names this person: the export says whom they protect too.
    const anna = await person(server, { level: 'full' });
    const trusting = await server.call('PUT', '/v2/wallet/trusted-person', {
      token: anna.token,
      body: { phone, threshold: '2000', new_payees: true },
    });
    expect(trusting.status, JSON.stringify(trusting.body)).toBe(200);
    const message = await call('POST', '/v2/wallet/support/messages', { text: 'Где мой перевод?' });
    expect(message.status, JSON.stringify(message.body)).toBe(200);

    const json = await call('GET', '/v2/wallet/me/export');
    expect(json.status).toBe(200);
    const data = json.body;
    expect(data.goals).toEqual([
      expect.objectContaining({ name: 'Велосипед', target_amount: '30000.00', saved: '1000.00' }),
    ]);
    expect(data.budgets).toEqual([
      expect.objectContaining({ category: 'people', amount: '7000.00', currency_code: 'RUB' }),
    ]);
    expect(data.trusted_person.trusted_person).toMatchObject({
      phone: olga.phone,
      threshold: '5000.00',
      status: 'pending',
    });
    expect(data.trusted_person.trusting).toEqual([{ name: 'Иван П.', phone: anna.phone, status: 'pending' }]);
    expect(data.support_messages).toEqual([
      expect.objectContaining({ author: 'person', text: 'Где мой перевод?', images: 0, operation: null }),
    ]);
    // No one else's id: the trusting list names people, it does not hand out their user ids.
    expect(JSON.stringify(data)).not.toContain(anna.userId);

    for (const language of ['ru', 'en'] as const) {
      const pdf = await server.app.inject({
        method: 'GET',
        url: '/v2/wallet/me/export?format=pdf',
        headers: { authorization: `Token ${token}`, 'accept-language': language },
      });
      expect(pdf.statusCode).toBe(200);
      const text = pdfText(pdf.rawPayload);
      const words =
        language === 'ru'
          ? ['Копилки', 'Бюджеты', 'Доверенное лицо', 'Переписка с поддержкой', 'Вы — доверенное лицо для']
          : ['Savings goals', 'Budgets', 'Trusted person', 'Support chat', 'You are the trusted person of'];
      for (const word of words) expect(text).toContain(word);
      expect(text).toContain('Велосипед');
      expect(text).toContain('Где мой перевод?');
      // Phones spaced as the app shows them, the browser by its name, never the raw header.
      const digits = phone.slice(2);
      const spaced = `+7 ${digits.slice(0, 3)} ${digits.slice(3, 6)}`;
      expect(text.replace(/\u00a0/g, ' ')).toContain(spaced);
      expect(text).not.toContain(phone);
      expect(text).toContain('Chrome, Android');
      expect(text).not.toContain('AppleWebKit');
    }
  });
});
