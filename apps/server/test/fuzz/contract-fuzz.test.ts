/**
 * The contract fuzzer: invalid and boundary requests generated from the contract's call table
 * (generate.ts) against a real server with a signed-in user who has money, a PIN, an order, a payout
 * and notifications. Every answer must be: below 500; on refusal the contract's error shape
 * {status:'error', code, message} with a Russian message and nothing of the inside (no stack frame,
 * file name, driver or SQL); and after every refused call the database must be exactly as before
 * (snapshot.ts: row counts of all tables, money, PINs, revocations, decided orders and payouts).
 *
 *   FUZZ_REQUESTS  how many requests (default 3000: the bounded run inside `npm test`;
 *                  `npm run test:fuzz` runs 10,000 on PGlite and on PostgreSQL)
 *   FUZZ_SEED      the generator's seed (printed in the summary, to reproduce a failure)
 */
import { type CallName, calls } from '@e-wallet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationDigest } from '../../src/modules/auth/codes.ts';
import { signPayload } from '../../src/providers/signature.ts';
import { createSession, findSession, revokeSession } from '../../src/sessions/tokens.ts';
import { databaseLabel, startTestServer, type TestServer, uniquePhone } from '../helpers.ts';
import { ledgerViolations } from '../invariants.ts';
import { application, basic } from '../merchant-helpers.ts';
import { started } from '../topup-helpers.ts';
import { key, type Person, PIN, person, withdraw } from '../withdrawal-helpers.ts';
import { type FuzzCase, makeCase, plan, rng, strayCase, type World } from './generate.ts';
import { differences, type Snapshot, snapshot, snapshotQuery } from './snapshot.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const CYRILLIC = /[А-Яа-яЁё]/;
/** What must never reach a client in an error answer: stack frames, source files, driver and SQL words. */
const LEAKS = ['at ', '.ts:', 'Error:', 'pg', 'SELECT', 'node_modules', 'stack'];
/** In successful answers (which may echo a person's own data) only unmistakable internals count. */
const SUCCESS_LEAKS = [/node_modules/, /\.ts:\d/, /\n\s+at /, /Error:/];

interface Failure {
  index: number;
  category: string;
  call: string | null;
  request: string;
  problem: string;
}

describe(`contract fuzzer (${databaseLabel})`, () => {
  let server: TestServer;
  let main: Person;
  let recipient: Person;
  let world: World;
  let token: string;
  let merchantAuth: string;
  let sqlText: string;
  const tokens = { expired: '', revoked: '' };

  beforeAll(async () => {
    server = await startTestServer();
    main = await person(server, { rub: 1_000_000n });
    recipient = await person(server, { rub: 100n });
    token = main.token;
    const order = await started(server, main.token, '10.00');
    const payout = await withdraw(server, main, { amount: '5.00' }, key());
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    const notes = await server.call('GET', '/v2/wallet/user/notification', { token });
    const wallet = await server.call('GET', '/v2/wallet', { token });
    const now = server.clock.now();
    const other = await createSession(server.ctx.db, main.userId, {
      userAgent: 'fuzz',
      ip: '127.0.0.2',
      now,
    });
    const expired = await createSession(server.ctx.db, main.userId, {
      userAgent: 'fuzz',
      ip: '127.0.0.3',
      now: new Date(now.getTime() - 31 * 86_400_000),
    });
    const revoked = await createSession(server.ctx.db, main.userId, {
      userAgent: 'fuzz',
      ip: '127.0.0.4',
      now,
    });
    await revokeSession(server.ctx.db, main.userId, revoked.sessionId, now);
    tokens.expired = expired.token;
    tokens.revoked = revoked.token;
    world = {
      pin: PIN,
      ownPhone: main.phone,
      recipientPhone: recipient.phone,
      accountId: wallet.body.results[0].accounts[0].id,
      orderId: order.order,
      withdrawalId: payout.body.receipt.id,
      notificationId: notes.body.results[0]?.id ?? '00000000-0000-0000-0000-000000000000',
      otherSessionId: other.sessionId,
      now: () => server.clock.now(),
      freshPhone: uniquePhone,
      unknownPhone: uniquePhone(),
    };
    // The main person is also an approved merchant with a key, so the merchant API's deeper checks are reached.
    await server.ctx.db.query(`UPDATE users SET identification_level = 'full' WHERE id = $1`, [main.userId]);
    const applied = await server.call('POST', '/v2/wallet/merchant', { token, body: application() });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    await server.ctx.db.query(`UPDATE merchants SET status = 'active' WHERE id = $1`, [
      applied.body.merchant.id,
    ]);
    const made = await server.call('POST', '/v2/wallet/merchant/keys', { token, body: { name: 'fuzz' } });
    merchantAuth = basic(applied.body.merchant.id, made.body.key.secret);
    sqlText = await snapshotQuery(server.ctx.db);
  }, 120_000);
  afterAll(() => server?.close());

  function authorization(c: FuzzCase): string | undefined {
    switch (c.auth) {
      case 'valid':
        return c.call && calls[c.call].access === 'merchant' ? merchantAuth : `Token ${token}`;
      case 'none':
        return undefined;
      case 'forged':
        return `Token ${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
      case 'expired':
        return `Token ${tokens.expired}`;
      case 'revoked':
        return `Token ${tokens.revoked}`;
      case 'malformed':
        return [
          'Token',
          'Token ',
          `Token ${token} extra`,
          `Token ${token.slice(0, 20)}`,
          'Token ../../',
          `${token}`,
        ][c.url.length % 6];
      case 'other-scheme':
        return `Bearer ${token}`;
    }
  }

  function signature(c: FuzzCase): string | undefined {
    const body = c.payload ?? '';
    const now = server.clock.now();
    switch (c.signature) {
      case 'none':
        return undefined;
      case 'valid':
        return signPayload(server.config.WEBHOOK_SECRET, body, now);
      case 'forged':
        return signPayload('not-the-secret-of-this-server', body, now);
      case 'stale':
        return signPayload(server.config.WEBHOOK_SECRET, body, new Date(now.getTime() - 3_600_000));
      case 'malformed':
        return [
          't=abc,v1=zz',
          'v1=',
          '=',
          't=1',
          'garbage',
          `t=${Math.floor(now.getTime() / 1000)},v1=${'0'.repeat(64)}`,
        ][body.length % 6];
    }
  }

  /** Keeps the user able to reach the deeper checks: a live token, and no PIN lock from wrong PINs. */
  async function recover(c: FuzzCase, code: string | undefined): Promise<void> {
    if (code?.startsWith('PIN_')) {
      await server.ctx.db.query('UPDATE users SET pin_failures = 0, pin_locked_until = NULL WHERE id = $1', [
        main.userId,
      ]);
    }
    const mayHaveEnded =
      code?.startsWith('PIN_') ||
      (code === 'INVALID_TOKEN' && c.auth === 'valid') ||
      c.call === 'logout' ||
      c.call === 'endOtherSessions' ||
      c.call === 'endSession';
    if (mayHaveEnded && !(await findSession(server.ctx.db, token, server.clock.now()))) {
      token = (
        await createSession(server.ctx.db, main.userId, {
          userAgent: 'fuzz',
          ip: '127.0.0.1',
          now: server.clock.now(),
        })
      ).token;
    }
  }

  it(`answers ${REQUESTS} broken requests cleanly and changes nothing`, async () => {
    const random = rng(SEED);
    const pairs = plan();
    const failures: Failure[] = [];
    const stats = {
      requests: 0,
      refused: 0,
      accepted: 0,
      unchangedChecks: 0,
      fiveXX: 0,
      twins: 0,
      byStatus: new Map<number, number>(),
    };
    const calledNames = new Set<string>();
    let before: Snapshot = await snapshot(server.ctx.db, sqlText);

    for (let index = 0; index < REQUESTS; index++) {
      // First every (call, category) pair once, then at random; one in fifty is a path off the table.
      let c: FuzzCase;
      if (index < pairs.length) c = makeCase(pairs[index]![0], pairs[index]![1], random, world);
      else if (random() < 0.02) c = strayCase(random);
      else {
        const [name, category] = pairs[Math.floor(random() * pairs.length)]!;
        c = makeCase(name, category, random, world);
      }
      if (c.call) calledNames.add(c.call);
      const headers: Record<string, string> = { ...c.headers };
      const auth = authorization(c);
      if (auth !== undefined) headers.authorization = auth;
      const sig = signature(c);
      if (sig !== undefined) headers['x-signature'] = sig;

      const describeCase = () =>
        `${c.method} ${c.url.slice(0, 200)} auth=${c.auth} sig=${c.signature} ${JSON.stringify(headers['content-type'] ?? '')} ${String(c.payload ?? '').slice(0, 200)}`;
      const fail = (problem: string) => {
        if (failures.length < 50)
          failures.push({ index, category: c.category, call: c.call, request: describeCase(), problem });
      };

      let response: Awaited<ReturnType<typeof server.app.inject>>;
      // The event stream never ends by itself: a stream that started is cut after a moment.
      const streaming = c.call === 'events' ? AbortSignal.timeout(300) : undefined;
      try {
        response = await server.app.inject({
          method: c.method as 'GET',
          url: c.url,
          headers,
          payload: c.payload,
          ...(c.remoteAddress ? { remoteAddress: c.remoteAddress } : {}),
          ...(streaming ? { signal: streaming } : {}),
        });
      } catch (error) {
        if (streaming?.aborted) {
          stats.requests += 1;
          stats.accepted += 1;
          continue;
        }
        fail(`inject threw: ${(error as Error).message}`);
        continue;
      }
      stats.requests += 1;
      if (c.twin) {
        // Known and unknown phones must be answered alike (the phone itself aside).
        const other = await server.app.inject({
          method: c.method as 'GET',
          url: c.twin.url,
          headers,
          payload: c.twin.payload,
          ...(c.remoteAddress ? { remoteAddress: c.remoteAddress } : {}),
        });
        stats.twins += 1;
        const [known, unknown] = c.twin.phones;
        if (
          other.statusCode !== response.statusCode ||
          other.body.replaceAll(unknown, 'PHONE') !== response.body.replaceAll(known, 'PHONE')
        )
          fail(
            `known and unknown phones answered apart: ${response.statusCode} ${response.body.slice(0, 200)} / ${other.statusCode} ${other.body.slice(0, 200)}`,
          );
      }
      if (c.url.startsWith('/sandbox/sms') && response.statusCode === 200) {
        const asked = new URL(c.url, 'http://x').searchParams.get('phone');
        const results = (JSON.parse(response.body) as { results: Array<{ phone: string }> }).results;
        if (!asked || results.some((sms) => sms.phone !== asked))
          fail(`the outbox answered other phones' texts`);
      }
      stats.byStatus.set(response.statusCode, (stats.byStatus.get(response.statusCode) ?? 0) + 1);
      const text = response.body;
      let body: { status?: unknown; code?: unknown; message?: unknown } | null = null;
      try {
        body = JSON.parse(text);
      } catch {}

      if (response.statusCode >= 500) {
        stats.fiveXX += 1;
        fail(`status ${response.statusCode}: ${text.slice(0, 300)}`);
      }
      if (response.statusCode >= 400) {
        stats.refused += 1;
        if (
          body?.status !== 'error' ||
          typeof body.code !== 'string' ||
          !/^[A-Z][A-Z_]+$/.test(body.code) ||
          typeof body.message !== 'string' ||
          Object.keys(body).length !== 3
        ) {
          fail(`not the error shape: ${text.slice(0, 300)}`);
        } else {
          if (c.expectCode && body.code !== c.expectCode) fail(`expected ${c.expectCode}, got ${body.code}`);
          if (!CYRILLIC.test(body.message)) fail(`message not in Russian: ${body.message}`);
          for (const leak of LEAKS)
            if (text.includes(leak)) fail(`answer carries '${leak}': ${text.slice(0, 300)}`);
          if (!String(response.headers['content-type']).startsWith('application/json'))
            fail(`error answered as ${response.headers['content-type']}`);
          if (c.auth !== 'valid' && c.auth !== 'none' && c.call && calls[c.call].access === 'token') {
            if (response.statusCode !== 401 || body.code !== 'INVALID_TOKEN')
              fail(`a bad token answered ${response.statusCode} ${body.code}`);
          }
          if (
            c.signature !== 'valid' &&
            c.signature !== 'none' &&
            c.call &&
            calls[c.call].access === 'provider'
          ) {
            // A body that cannot be read (too large, not JSON) is refused before its signature can be checked.
            if (
              ![
                'WEBHOOK_SIGNATURE_INVALID',
                'PAYLOAD_TOO_LARGE',
                'INVALID_JSON',
                'UNSUPPORTED_MEDIA_TYPE',
              ].includes(body.code)
            )
              fail(`a bad signature answered ${body.code}`);
          }
        }
      } else {
        stats.accepted += 1;
        if (c.expectCode) fail(`expected ${c.expectCode}, was accepted (${response.statusCode})`);
        for (const leak of SUCCESS_LEAKS)
          if (leak.test(text)) fail(`success answer carries ${leak}: ${text.slice(0, 300)}`);
        if (c.auth !== 'valid' && c.auth !== 'none' && c.call && calls[c.call].access === 'token')
          fail(`a bad token was accepted (${response.statusCode})`);
        if (c.signature !== 'valid' && c.signature !== 'none')
          fail(`a bad signature was accepted (${response.statusCode})`);
      }

      const after = await snapshot(server.ctx.db, sqlText);
      if (response.statusCode >= 400) {
        stats.unchangedChecks += 1;
        // A wrong SMS code is counted (per code and per phone's day), and the tenth of a day tells
        // the owner by SMS: those rows are the control itself, not a change the refusal made.
        const counted = typeof body?.code === 'string' && body.code.startsWith('CODE_');
        const changed = differences(before, after).filter(
          (d) => !(counted && /^rows:(rate_limits|sandbox_sms_outbox):/.test(d)),
        );
        if (changed.length) fail(`refused (${body?.code}) but changed: ${changed.join('; ')}`);
      }
      await recover(c, typeof body?.code === 'string' ? body.code : undefined);
      before =
        response.statusCode >= 400 && !(typeof body?.code === 'string' && body.code.startsWith('PIN_'))
          ? after
          : await snapshot(server.ctx.db, sqlText);
    }

    // At most 10 wrong codes per phone in any 24 hours, whatever the fuzzer tried (finding 3).
    const { rows: guessed } = await server.ctx.db.query<{ key: string; n: number }>(
      `SELECT key, cardinality(hits)::integer AS n FROM rate_limits WHERE key LIKE 'code-wrong:%' AND cardinality(hits) > 10`,
    );
    expect(guessed).toEqual([]);
    // A registration's data is the data its live code was sent for (finding 2).
    const { rows: pendings } = await server.ctx.db.query<{
      phone: string;
      first_name: string;
      last_name: string;
      email: string;
      data_digest: Buffer;
    }>(
      `SELECT p.phone, p.first_name, p.last_name, p.email, c.data_digest FROM pending_registrations p
       JOIN auth_codes c ON c.phone = p.phone AND c.purpose = 'register'`,
    );
    for (const row of pendings)
      expect(Buffer.from(row.data_digest).equals(registrationDigest(server.config, row)), row.phone).toBe(
        true,
      );

    const ledger = await ledgerViolations(server.ctx.db);
    const statuses = [...stats.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.info(
      `fuzz summary (${databaseLabel}): ${stats.requests} requests over ${calledNames.size}/${Object.keys(calls).length} calls and ${pairs.length} call×category pairs, ` +
        `${stats.refused} refused, ${stats.accepted} accepted, ${stats.fiveXX} 5xx, ${stats.unchangedChecks} unchanged-database checks, ${stats.twins} known/unknown phone pairs alike, ` +
        `${failures.length} failures, ledger ${ledger.length ? 'BROKEN' : 'sound'}; statuses ${statuses}; seed ${SEED}`,
    );
    expect(ledger).toEqual([]);
    expect(failures).toEqual([]);
    expect(calledNames.size).toBe(Object.keys(calls).length);
    expect(stats.requests).toBe(
      REQUESTS - failures.filter((f) => f.problem.startsWith('inject threw')).length,
    );
  }, 1_800_000);
});

export type { CallName };
