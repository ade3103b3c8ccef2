/**
 * Withdrawals under concurrency, on PostgreSQL (PGlite is one session, so nothing can race there):
 * parallel withdrawals never overdraw, parallel repeats of one Idempotency-Key hold once, and two
 * server instances' payout workers never settle one payout twice (FOR UPDATE SKIP LOCKED).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createContext, type RunningContext } from '../src/create-context.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { startTestServer, TestClock, type TestServer, usePostgres } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, DECLINED_CARD, GOOD_CARD, key, person, withdraw } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe.skipIf(!usePostgres)('withdrawal concurrency (postgres)', () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  it('parallel withdrawals never overdraw', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => withdraw(server, ivan, { amount: '300' }, key())),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused.map((a) => a.body.code)).toEqual(Array(7).fill('INSUFFICIENT_FUNDS'));
    expect(await balance(server, ivan)).toBe('100.00');
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('parallel repeats of one Idempotency-Key hold the money once', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => withdraw(server, ivan, { amount: '100' }, k)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const ids = new Set(answers.map((a) => a.body.receipt.id));
    expect(ids.size).toBe(1);
    expect(await balance(server, ivan)).toBe('900.00');
    const { rows } = await server.ctx.db.query('SELECT id FROM sandbox_payouts WHERE reference = $1', [
      ...ids,
    ]);
    expect(rows).toHaveLength(1);
    await runPayoutWorkerOnce(server.ctx);
  });

  describe('two server instances', () => {
    let second: RunningContext;
    let secondApp: FastifyInstance;
    beforeAll(async () => {
      second = await createContext(server.config, { clock, dataDir: 'memory' });
      secondApp = await buildApp(second, { logger: false });
      await secondApp.ready();
    });
    afterAll(async () => {
      await secondApp.close();
      await second.stop();
    });

    it('their workers settle every due payout exactly once', async () => {
      const people = await Promise.all(Array.from({ length: 6 }, () => person(server, { rub: rub(1000) })));
      for (const [i, who] of people.entries()) {
        for (let j = 0; j < 5; j++) {
          const answer = await withdraw(server, who, {
            amount: '10',
            pan: (i + j) % 3 === 0 ? DECLINED_CARD : GOOD_CARD,
          });
          expect(answer.status).toBe(200);
        }
      }
      // Both instances pass over the same due rows at once, several times.
      const counts = await Promise.all([
        runPayoutWorkerOnce(server.ctx),
        runPayoutWorkerOnce(second),
        runPayoutWorkerOnce(server.ctx),
        runPayoutWorkerOnce(second),
      ]);
      let total = counts.reduce((a, b) => a + b, 0);
      // A batch is 20 rows: whatever is left is taken by the next passes.
      for (let pass = 0; pass < 3; pass++)
        total += (await runPayoutWorkerOnce(second)) + (await runPayoutWorkerOnce(server.ctx));
      expect(total).toBe(30);
      const { rows } = await server.ctx.db.query<{ attempts: number; notified: boolean }>(
        'SELECT attempts, notified_at IS NOT NULL AS notified FROM sandbox_payouts',
      );
      expect(rows.filter((r) => !r.notified)).toEqual([]);
      expect(rows.filter((r) => r.attempts !== 1)).toEqual([]);
      const { rows: open } = await server.ctx.db.query(
        `SELECT id FROM payouts WHERE status IN ('created', 'pending')`,
      );
      expect(open).toEqual([]);
      for (const [i, who] of people.entries()) {
        const declined = [0, 1, 2, 3, 4].filter((j) => (i + j) % 3 === 0).length;
        expect(await balance(server, who)).toBe(`${1000 - 10 * (5 - declined)}.00`);
      }
    });
  });
});
