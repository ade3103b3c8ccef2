/**
 * The tariffs document (docs/decisions/sbp.md#fees) says what the settings charge: the СБП transfer's fee
 * and the merchants' fee, in both languages; the current version only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_VERSION } from '../src/modules/terms/index.ts';
import { tariffsPage } from '../src/modules/terms/tariffs.ts';
import { databaseLabel, startTestServer, type TestServer } from './helpers.ts';

const fees = (page: string) => [...page.matchAll(/<td data-fee>([^<]*)<\/td>/g)].map((m) => m[1]);

it('states the СБП fee as configured: none, a percent, a percent with a minimum, a flat fee', () => {
  const page = (bp: number, min: number, language: 'ru' | 'en' = 'ru') =>
    tariffsPage(
      { SBP_FEE_BASIS_POINTS: bp, SBP_FEE_MIN_KOPECKS: min, MERCHANT_FEE_BASIS_POINTS: 150 },
      TERMS_VERSION,
      language,
    );
  expect(fees(page(0, 0))[6]).toBe('Бесплатно');
  expect(fees(page(50, 0))[6]).toBe('0,50\u00a0% от суммы');
  expect(fees(page(100, 1000))[6]).toBe('1,00\u00a0% от суммы, не менее 10,00\u00a0₽');
  expect(fees(page(0, 2500, 'en'))[6]).toBe('₽25.00 per transfer');
  expect(fees(page(0, 0, 'en'))[8]).toBe('1.50% of the amount');
  expect(page(0, 0)).toContain('Пополнение через СБП');
});

describe(`the tariffs page (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { SBP_FEE_BASIS_POINTS: '70', SBP_FEE_MIN_KOPECKS: '3000', MERCHANT_FEE_BASIS_POINTS: '200' },
    });
  });
  afterAll(() => server.close());

  it('is linked by the terms answer and rendered with the settings in force', async () => {
    const terms = await server.call('GET', '/v2/wallet/terms', { headers: { 'accept-language': 'en' } });
    const url = terms.body.documents.find((d: { kind: string }) => d.kind === 'tariffs').url;
    expect(url).toBe(`/v2/wallet/terms/${TERMS_VERSION}/tariffs.en.html`);
    const page = await server.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("style-src 'self'");
    expect(fees(page.body)).toContain('0.70% of the amount, at least ₽30.00');
    expect(fees(page.body)).toContain('2.00% of the amount');
    const ru = await server.app.inject({ method: 'GET', url: url.replace('.en.', '.ru.') });
    expect(ru.body).toContain('Редакция от 28 ноября 2026 г.');
    for (const wrong of ['2026-11-25/tariffs.ru.html', `${TERMS_VERSION}/tariffs.de.html`])
      expect((await server.app.inject({ method: 'GET', url: `/v2/wallet/terms/${wrong}` })).statusCode).toBe(
        404,
      );
  });
});
