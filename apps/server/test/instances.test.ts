/**
 * Two server instances on one PostgreSQL, as real processes (`node apps/server/src/main.ts` twice on
 * two ports, one DATABASE_URL of a fresh database):
 *  - sessions are shared: a token made on A works on B, and signing out on B ends it on A;
 *  - SMS limits are shared: concurrent code requests for one phone split over both instances send
 *    one code at most, and the per-address cap counts sends on both;
 *  - guessing is counted together: five wrong codes or PINs spread over both kill the code / lock the PIN;
 *  - SIGKILL of one instance in the middle of transfers from many clients loses nothing: every
 *    acknowledged transfer exists exactly once, retries with the same Idempotency-Key on the survivor
 *    never move money twice, and the ledger's invariants hold.
 * Needs PostgreSQL: runs when TEST_DB=postgres and TEST_DATABASE_URL are set (the PostgreSQL pass of
 * `npm run test:api`), skipped otherwise (PGlite is one process's database).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from '../src/db/client.ts';
import { PERSON } from './auth-helpers.ts';
import {
  call,
  chaosPhone,
  freshDatabase,
  register,
  type ServerProcess,
  startServer,
} from './chaos/process.ts';
import { fundPhone, ledgerViolations } from './fund.ts';

// In the PostgreSQL pass of the API tests only (the PGlite pass has TEST_DB=pglite).
const enabled = process.env.TEST_DB === 'postgres' && !!process.env.TEST_DATABASE_URL;
const ADDRESS_CAP = 6;

describe.skipIf(!enabled)('two server instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let db: Db;
  const env = {
    TRUST_PROXY: '1',
    SMS_PER_ADDRESS_PER_HOUR: String(ADDRESS_CAP),
    SANDBOX_PAYOUT_DELAY_MS: '200',
  };

  beforeAll(async () => {
    database = await freshDatabase('ewallet_inst');
    // A applies the migrations; B starts on the migrated database.
    a = await startServer({ databaseUrl: database.url, env });
    b = await startServer({ databaseUrl: database.url, env });
    db = await openPostgres(database.url, 4);
  }, 90_000);
  afterAll(async () => {
    await a?.kill();
    await b?.kill();
    await db?.close();
    await database?.drop();
  });

  it('a session made on A works on B, and signing out on B ends it on A', async () => {
    const { token } = await register(a.base, { address: '198.51.100.1' });
    // Used on both first, so each instance holds it in its session cache.
    expect((await call(a.base, 'GET', '/v2/wallet/auth/info', { token })).status).toBe(200);
    expect((await call(b.base, 'GET', '/v2/wallet/auth/info', { token })).status).toBe(200);
    expect((await call(b.base, 'POST', '/v2/wallet/auth/logout', { token })).status).toBe(200);
    expect((await call(b.base, 'GET', '/v2/wallet/auth/info', { token })).status).toBe(401);
    // A hears of it by the database's notice: within milliseconds, not the cache's minute.
    const started = Date.now();
    let after = await call(a.base, 'GET', '/v2/wallet/auth/info', { token });
    while (after.status === 200 && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      after = await call(a.base, 'GET', '/v2/wallet/auth/info', { token });
    }
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_TOKEN');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('concurrent code requests for one phone over both instances send one code at most', async () => {
    const { phone } = await register(a.base, { address: '198.51.100.2' });
    const outbox = async () =>
      (await call(a.base, 'GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results
        .length as number;
    const before = await outbox();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 ? a.base : b.base, 'POST', '/v2/wallet/auth/send_code', {
          body: { phone },
          headers: { 'x-forwarded-for': `198.51.100.${10 + i}` },
        }),
      ),
    );
    const sent = answers.filter((r) => r.status === 200).length;
    expect(sent).toBeLessThanOrEqual(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(429);
      expect(['CODE_RESEND_TOO_SOON', 'SMS_LIMIT_PHONE']).toContain(r.body.code);
    }
    expect(await outbox()).toBe(before + sent);
  });

  it('the per-address SMS cap counts sends on both instances', async () => {
    const address = '203.0.113.77';
    const answers = [];
    for (let i = 0; i < ADDRESS_CAP + 2; i++) {
      answers.push(
        await call(i % 2 ? b.base : a.base, 'POST', '/v2/wallet/auth/register', {
          body: { ...PERSON, phone: chaosPhone() },
          headers: { 'x-forwarded-for': address },
        }),
      );
    }
    expect(answers.slice(0, ADDRESS_CAP).map((r) => r.status)).toEqual(Array(ADDRESS_CAP).fill(200));
    for (const refused of answers.slice(ADDRESS_CAP)) {
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('SMS_LIMIT_ADDRESS');
    }
  });

  it('wrong codes and wrong PINs are counted together on both instances', async () => {
    const phone = chaosPhone();
    const headers = { 'x-forwarded-for': '198.51.100.200' };
    const started = await call(a.base, 'POST', '/v2/wallet/auth/register', {
      body: { ...PERSON, phone },
      headers,
    });
    expect(started.status).toBe(200);
    const sms = await call(a.base, 'GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    const code = sms.body.results[0].code as string;
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
    for (let i = 0; i < 5; i++) {
      const res = await call(i % 2 ? b.base : a.base, 'POST', '/v2/wallet/auth/register/phone/confirm', {
        body: { phone, confirm_code: wrong },
        headers,
      });
      expect(res.status).toBe(400);
    }
    // Five wrong tries over both instances killed the code: the right one no longer works anywhere.
    const late = await call(b.base, 'POST', '/v2/wallet/auth/register/phone/confirm', {
      body: { phone, confirm_code: code },
      headers,
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('CODE_TRIES_EXCEEDED');

    const { token } = await register(a.base, { address: '198.51.100.201' });
    for (let i = 0; i < 5; i++) {
      const res = await call(i % 2 ? b.base : a.base, 'POST', '/v2/wallet/auth/pin/verify', {
        token,
        body: { pin: '9999' },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    const locked = await call(b.base, 'POST', '/v2/wallet/auth/pin/verify', { token, body: { pin: '1234' } });
    expect(locked.body.code).toBe('PIN_LOCKED');
  });

  it('SIGKILL of one instance mid-load loses no acknowledged transfer and moves nothing twice', async () => {
    const CLIENTS = 12;
    const PER_CLIENT = 30;
    const people: Array<{ phone: string; token: string }> = [];
    for (let i = 0; i < CLIENTS; i++) {
      const person = await register(i % 2 ? b.base : a.base, { address: `192.0.2.${i + 1}` });
      await db.query(`UPDATE users SET identification_level = 'simplified' WHERE phone = $1`, [person.phone]);
      await fundPhone({ db, clock: { now: () => new Date() } }, person.phone, 100_000n);
      people.push(person);
    }
    const acked = new Map<string, { id: string; from: string; to: string; minor: bigint }>();
    let killed = false;
    let attemptsOnDead = 0;
    const client = async (index: number) => {
      const me = people[index]!;
      for (let n = 0; n < PER_CLIENT; n++) {
        const to = people[(index + 1 + (n % (CLIENTS - 1))) % CLIENTS]!;
        const minor = BigInt(1 + ((index * 31 + n * 17) % 500));
        const key = `inst-${randomUUID()}`;
        const body = {
          phone: to.phone,
          amount: `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`,
          currency_code: 'RUB',
          pin: '1234',
        };
        // Alternate instances; after an unanswered try, retry on A with the same key until answered.
        let target = n % 2 ? b : a;
        for (let attempt = 0; ; attempt++) {
          const res = await call(target.base, 'POST', '/v2/wallet/transfer', {
            token: me.token,
            body,
            headers: { 'idempotency-key': key },
          });
          if (res.status === 200) {
            acked.set(key, { id: res.body.receipt.id, from: me.phone, to: to.phone, minor });
            break;
          }
          if (res.status === 0 || res.status >= 500) {
            if (target === b) attemptsOnDead += 1;
            target = a;
            expect(attempt).toBeLessThan(20);
            continue;
          }
          throw new Error(`transfer refused: ${res.status} ${JSON.stringify(res.body)}`);
        }
        if (!killed && acked.size >= (CLIENTS * PER_CLIENT) / 3) {
          killed = true;
          await b.kill('SIGKILL');
        }
      }
    };
    await Promise.all(people.map((_, i) => client(i)));
    expect(killed).toBe(true);
    expect(acked.size).toBe(CLIENTS * PER_CLIENT);

    // Every acknowledged transfer exists exactly once: its ledger transfer, and its key's one answer
    // (the transfer's id, which the key keeps for the receipt).
    const { rows } = await db.query<{ id: string; key: string; answer_id: string }>(
      `SELECT t.id, k.key, k.answer->>'kept' AS answer_id
       FROM idempotency_keys k JOIN ledger_transfers t ON t.id = (k.answer->>'kept')::uuid
       WHERE k.call = 'transfer'`,
    );
    expect(rows.length).toBe(acked.size);
    for (const row of rows) expect(acked.get(row.key)?.id).toBe(row.id);
    const { rows: moved } = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ledger_transfers WHERE kind = 'transfer'`,
    );
    expect(moved[0]!.n).toBe(acked.size);
    // Each person's balance is exactly what the acknowledged transfers say.
    const expected = new Map(people.map((p) => [p.phone, 100_000n]));
    for (const t of acked.values()) {
      expected.set(t.from, expected.get(t.from)! - t.minor);
      expected.set(t.to, expected.get(t.to)! + t.minor);
    }
    const { rows: balances } = await db.query<{ phone: string; balance: bigint }>(
      `SELECT u.phone, a.balance FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE a.currency = 'RUB'`,
    );
    for (const row of balances)
      if (expected.has(row.phone)) expect(row.balance).toBe(expected.get(row.phone));
    expect(await ledgerViolations(db)).toEqual([]);
    console.info(
      `instances summary: ${acked.size} acknowledged transfers from ${CLIENTS} clients over 2 instances, 1 SIGKILL survived, ` +
        `${attemptsOnDead} requests lost with the dead instance and retried, 0 lost, 0 doubled, ledger sound`,
    );
  }, 180_000);
});
