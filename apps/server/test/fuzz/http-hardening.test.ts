/**
 * HTTP hardening (docs/decisions/security-rules.md#security-baselines) on every kind of answer the server
 * gives: pages (the sandbox's HTML, the app's paths) carry a strict Content-Security-Policy (no inline
 * script, no eval, no third-party origin or wildcard, frame-ancestors none, object-src none); the API's JSON
 * answers (success, error, not found) one that allows nothing at all, and no-store. All of them: nosniff, no
 * referrer, same-origin resource policy, no X-Powered-By; HSTS only in production mode (where the
 * sandbox routes do not exist); request bodies capped at 64 KiB for JSON and form posts alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { BODY_LIMIT } from '../../src/http/server.ts';
import { databaseLabel, startTestServer, type TestServer } from '../helpers.ts';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

describe(`HTTP hardening (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  // The API's answers: JSON, success and error alike, under /v2 and the operational endpoints.
  const apiAnswers = () => [
    server.app.inject({ method: 'GET', url: '/healthz' }),
    server.app.inject({ method: 'GET', url: '/v2/wallet' }),
    server.app.inject({ method: 'GET', url: '/v2/wallet?x=1' }),
    server.app.inject({ method: 'GET', url: '/v2/wallet/nothing-here' }),
    server.app.inject({
      method: 'POST',
      url: '/v2/wallet/auth/login',
      payload: '{',
      headers: { 'content-type': 'application/json' },
    }),
    server.app.inject({ method: 'GET', url: '/version.json' }),
  ];
  // Everything else may be a page: the sandbox's HTML, the app's paths, anything not found there.
  const pageAnswers = () => [
    server.app.inject({ method: 'GET', url: '/sandbox/pay/00000000-0000-0000-0000-000000000000' }),
    server.app.inject({ method: 'GET', url: '/v2wallet' }),
    server.app.inject({ method: 'GET', url: '/history' }),
  ];

  const expectCommon = (res: { headers: Record<string, unknown> }) => {
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // Not in production mode: no HSTS over plain HTTP on a laptop.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  };

  it('every page carries a strict CSP with no inline script and no third-party origin', async () => {
    for (const res of await Promise.all(pageAnswers())) {
      const csp = String(res.headers['content-security-policy'] ?? '');
      const d = directives(csp);
      expect(d.get('default-src'), res.raw.req.url).toEqual(["'self'"]);
      expect(d.get('frame-ancestors')).toEqual(["'none'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(d.get('base-uri')).toEqual(["'self'"]);
      expect(d.get('form-action')).toEqual(["'self'"]);
      for (const [name, values] of d) {
        for (const value of values) {
          expect(value, `${name} ${value}`).not.toMatch(
            /^'unsafe-inline'$|^'unsafe-eval'$|^\*$|^https?:|^\*\.|^'unsafe-hashes'$/,
          );
        }
      }
      expect(d.get('script-src')?.every((v) => ["'self'", "'wasm-unsafe-eval'"].includes(v))).toBe(true);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expectCommon(res);
    }
  });

  it('every API answer allows nothing to load or frame it, and is never stored by a cache', async () => {
    for (const res of await Promise.all(apiAnswers())) {
      const d = directives(String(res.headers['content-security-policy'] ?? ''));
      expect([...d.keys()], res.raw.req.url).toEqual(['default-src', 'frame-ancestors']);
      expect(d.get('default-src')).toEqual(["'none'"]);
      expect(d.get('frame-ancestors')).toEqual(["'none'"]);
      expect(String(res.headers['cache-control'])).toContain('no-store');
      expect(String(res.headers['content-type'])).toContain('application/json');
      // The headers that only steer a document are left off JSON.
      for (const name of ['x-frame-options', 'cross-origin-opener-policy', 'x-dns-prefetch-control'])
        expect(res.headers[name], name).toBeUndefined();
      expectCommon(res);
    }
  });

  it('production mode sends HSTS for a year with subdomains, and has no sandbox routes', async () => {
    const app = await buildApp(
      { ...server.ctx, config: { ...server.ctx.config, production: true } },
      { logger: false },
    );
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      const hsts = String(res.headers['strict-transport-security'] ?? '');
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      const sandbox = await app.inject({ method: 'GET', url: '/sandbox/sms?phone=%2B79991234567' });
      expect(sandbox.statusCode).toBe(404);
      expect(JSON.parse(sandbox.body)).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });

  it('caps JSON and form bodies at 64 KiB with the error shape, and takes bodies under it', async () => {
    expect(BODY_LIMIT).toBe(64 * 1024);
    const over = JSON.stringify({ phone: 'x'.repeat(BODY_LIMIT) });
    const json = await server.call('POST', '/v2/wallet/auth/send_code', { body: over });
    expect(json.status).toBe(413);
    expect(json.body).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });
    const form = await server.app.inject({
      method: 'POST',
      url: '/sandbox/pay/00000000-0000-0000-0000-000000000000',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `card=${'4'.repeat(BODY_LIMIT)}&action=pay`,
    });
    expect(form.statusCode).toBe(413);
    // Just under the limit is read (and refused for what it says, not for its size).
    const under = JSON.stringify({ phone: 'x'.repeat(BODY_LIMIT - 100) });
    const read = await server.call('POST', '/v2/wallet/auth/send_code', { body: under });
    expect(read.status).toBe(400);
    expect(read.body.code).toBe('FIELD_INVALID');
  });
});
