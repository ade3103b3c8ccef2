/**
 * Codes, PINs and tokens never reach the log: the real server process runs at the most verbose
 * level through a whole sign-up and sign-in, and its output is searched for every secret.
 * Logging does not depend on the database, so this runs once, on embedded PGlite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON } from './auth-helpers.ts';
import { uniquePhone, usePostgres } from './helpers.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe.runIf(!usePostgres)('logs of sign-up and sign-in', () => {
  let child: ChildProcess;
  let output = '';
  let base = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'ewallet-logs-'));

  beforeAll(async () => {
    child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        WALLET_ENV: 'test',
        LOG_LEVEL: 'trace',
        PORT: '0',
        OPS_PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST: join(dataDir, 'no-web'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
      const poll = setInterval(() => {
        const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(output);
        if (match) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }, 50);
      child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Token ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('writes no code, PIN or token at trace level', async () => {
    const phone = uniquePhone();
    expect((await call('POST', '/v2/wallet/auth/register', { ...PERSON, phone })).status).toBe(200);
    const outbox = await call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    const code: string = outbox.body.results[0].code;
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    await call('POST', '/v2/wallet/auth/register/phone/confirm', { phone, confirm_code: wrong });
    const confirmed = await call('POST', '/v2/wallet/auth/register/phone/confirm', {
      phone,
      confirm_code: code,
    });
    const token: string = confirmed.body.auth_token;
    expect(token).toBeTruthy();
    await call('POST', '/v2/wallet/auth/register/set/pin', { pin_code: '7391' }, token);
    await call('POST', '/v2/wallet/auth/pin/verify', { pin: '7391' }, token);
    await call('POST', '/v2/wallet/auth/pin/verify', { pin: '7392' }, token);
    await call('POST', '/v2/wallet/auth/pin/change', { old_pin: '7391', new_pin: '5064' }, token);
    await call('GET', '/v2/wallet/auth/info', undefined, token);
    await call('POST', '/v2/wallet/auth/logout', undefined, token);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The log really is verbose: requests are in it, by path.
    expect(output).toContain('/v2/wallet/auth/register/phone/confirm');
    // Numbers the logger itself writes (process id, times, durations) could contain any four digits.
    const log = output
      .replaceAll(phone, '')
      .replace(/"(pid|time|responseTime|port)":[\d.]+/g, '')
      .replace(/127\.0\.0\.1:\d+/g, '');
    expect(log).not.toContain(token);
    for (const secret of [code, '7391', '7392', '5064']) {
      expect(log, `secret ${secret} in the log`).not.toMatch(new RegExp(`(?<!\\d)${secret}(?!\\d)`));
    }
  });
});
