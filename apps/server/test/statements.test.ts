/**
 * The money call and the first screen's read each cost one SQL statement once the instance is warm
 * (docs/performance.md, "Machine-independent costs"): a P2P payment is the door's one statement, and
 * GET /v2/wallet one read, the session answered from the instance's cache in both. A second
 * statement on either path is a round trip added to every payment or every opening of the app.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { watch } from './watch.ts';
import { key, PIN, person } from './withdrawal-helpers.ts';

describe(`statements per call, warm (${databaseLabel})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: new TestClock(Date.parse('2026-03-16T09:00:00Z')) });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  /** The statements (and 'tx' for each transaction) one call sends. */
  async function asked(call: () => Promise<{ status: number }>): Promise<string[]> {
    const watching = watch(server.ctx.db);
    try {
      expect((await call()).status).toBe(200);
      return [...watching.asked];
    } finally {
      watching.stop();
    }
  }

  /**
   * What a call sends once the instance is warm: the first calls read what it does not know yet, and
   * what it learns from the database's notices arrives when it arrives, so the call is repeated until
   * one sends a single statement (at most 20 times), and the call after it is the one answered.
   */
  async function askedWarm(call: () => Promise<{ status: number }>): Promise<string[]> {
    for (let i = 0; i < 20; i++) if ((await asked(call)).length === 1) break;
    return asked(call);
  }

  it('a P2P payment is one statement: the door, nothing before or after it', async () => {
    const ivan = await person(server, { rub: 100_000n });
    const petr = await person(server);
    const pay = () =>
      server.call('POST', '/v2/wallet/transfer', {
        token: ivan.token,
        body: { phone: petr.phone, amount: '1.00', currency_code: 'RUB', pin: PIN },
        headers: { 'idempotency-key': key() },
      });
    // Warm: the session, the people and the antifraud check's lists known, only the door.
    expect(await askedWarm(pay)).toEqual([expect.stringMatching(/ledger_pay/)]);
  });

  it('GET /v2/wallet is one statement', async () => {
    const ivan = await person(server, { rub: 1_000n });
    const wallet = () => server.call('GET', '/v2/wallet', { token: ivan.token });
    expect(await askedWarm(wallet)).toHaveLength(1);
  });
});
