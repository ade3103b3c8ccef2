/**
 * Brand and installable-app handling of the server: /version.json answers the build's version
 * (a deploy of a new build is picked up by open tabs), BRAND must match the build, and the
 * service worker and manifest are served so browsers always revalidate them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startTestServer, type TestServer } from './helpers.ts';

function fakeBuild(info: { version: string; brand: string }): string {
  const dist = mkdtempSync(join(tmpdir(), 'ewallet-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>E-Wallet</title>');
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"E-Wallet"}');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dist, 'build-info.json'), JSON.stringify(info));
  return dist;
}

describe('brand, version and installable app', () => {
  const dists: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const dist = fakeBuild({ version: '1.2.3', brand: 'grok' });
    dists.push(dist);
    server = await startTestServer({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    for (const dist of dists) rmSync(dist, { recursive: true, force: true });
  });

  it('answers /version.json with the version of the build it serves, never cached', async () => {
    const { status, body, headers } = await server.call('GET', '/version.json?1700000000000');
    expect(status).toBe(200);
    expect(body).toEqual({ version: '1.2.3' });
    expect(headers['cache-control']).toContain('no-cache');
  });

  it('takes the brand of the build when BRAND is unset', () => {
    expect(server.config.BRAND).toBe('grok');
  });

  it('serves the service worker and the manifest with no-cache, hashed assets as immutable', async () => {
    const sw = await server.call('GET', '/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(String(sw.headers['content-type'])).toMatch(/javascript/);
    const manifest = await server.call('GET', '/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(String(manifest.headers['content-type'])).toMatch(/manifest\+json|json/);
    const asset = await server.call('GET', '/assets/index-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('APP_VERSION overrides the build version; without a build, package.json version', () => {
    const dist = fakeBuild({ version: '1.2.3', brand: 'e-wallet' });
    dists.push(dist);
    expect(loadConfig({ WEB_DIST: dist, APP_VERSION: '0.0.2' }).appVersion).toBe('0.0.2');
    expect(loadConfig({ WEB_DIST: dist }).appVersion).toBe('1.2.3');
    expect(loadConfig({ WEB_DIST: join(dist, 'none') }, '0.0.1').appVersion).toBe('0.0.1');
    expect(loadConfig({ WEB_DIST: join(dist, 'none') }).BRAND).toBe('e-wallet');
  });

  it('refuses a BRAND the served build was not made for, with one clear line', () => {
    const dist = fakeBuild({ version: '0.0.1', brand: 'e-wallet' });
    dists.push(dist);
    expect(() => loadConfig({ WEB_DIST: dist, BRAND: 'grok' })).toThrow(
      /^Invalid setting BRAND: grok, but the app in WEB_DIST was built for e-wallet/,
    );
    expect(loadConfig({ WEB_DIST: dist, BRAND: 'e-wallet' }).BRAND).toBe('e-wallet');
    expect(() => loadConfig({ BRAND: 'acme' })).toThrow(/^Invalid setting BRAND/);
  });
});
