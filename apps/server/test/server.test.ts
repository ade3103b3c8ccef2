import { calls } from '@e-wallet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { databaseLabel, isErrorShape, startTestServer, type TestServer } from './helpers.ts';

describe(`server basics (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers /healthz with the database kind', async () => {
    const { status, body } = await server.call('GET', '/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', database: databaseLabel });
  });

  it('serves /version.json with no-cache headers', async () => {
    const { status, body, headers } = await server.call('GET', '/version.json?1700000000000');
    expect(status).toBe(200);
    expect(body).toEqual({ version: '0.0.1' });
    expect(headers['cache-control']).toContain('no-cache');
    expect(headers.pragma).toBe('no-cache');
    expect(headers.expires).toBe('0');
  });

  it('answers unknown API paths with the error shape in Russian, or English when asked', async () => {
    const ru = await server.call('GET', '/v2/wallet/nothing-here');
    expect(ru.status).toBe(404);
    expect(ru.body).toEqual({ status: 'error', code: 'NOT_FOUND', message: 'Не найдено' });
    const en = await server.call('GET', '/v2/wallet/nothing-here', {
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(en.body.message).toBe('Not found');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const { status, body } = await server.call('GET', '/docs/json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    // Every call of the contract table that the server serves is documented under its exact path.
    const served = Object.values(calls).filter((call) =>
      server.app.hasRoute({ method: call.method, url: call.path }),
    );
    for (const call of served) {
      const openApiPath = call.path.replace(/:(\w+)/g, '{$1}');
      expect(body.paths[openApiPath]?.[call.method.toLowerCase()], call.path).toBeDefined();
    }
  });

  it('sends strict security headers', async () => {
    const { headers } = await server.call('GET', '/healthz');
    expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('rejects malformed JSON and oversized bodies in the error shape', async () => {
    const bad = await server.call('POST', '/v2/wallet/auth/register', { body: '{"first_name":' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_JSON');
    const huge = await server.call('POST', '/v2/wallet/auth/register', {
      body: JSON.stringify({ first_name: 'x'.repeat(100_000) }),
    });
    expect(huge.status).toBe(413);
    expect(isErrorShape(huge.body)).toBe(true);
  });
});

describe('configuration', () => {
  it('stops start-up with one clear line on a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid setting PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      'Invalid setting DATABASE_URL: must be a postgres:// URL',
    );
  });
  it('refuses sandbox providers and development keys in production', () => {
    expect(() => loadConfig({ WALLET_ENV: 'production' })).toThrow(/PIN_KEY/);
    expect(() =>
      loadConfig({
        WALLET_ENV: 'production',
        PIN_KEY: 'a'.repeat(32),
        WEBHOOK_SECRET: 'b'.repeat(32),
        DATABASE_URL: 'postgres://x/y',
      }),
    ).toThrow(/sandbox providers are refused/);
  });
});
