/**
 * Transfers under concurrency, on PostgreSQL: opposite transfers between the same two people never
 * deadlock or lose money, parallel transfers never overdraw, parallel repeats of one key move once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TestClock, type TestServer, usePostgres } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe.skipIf(!usePostgres)('transfer concurrency (postgres)', () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const send = (from: Person, to: Person, amount: string, idempotencyKey = key()) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
      headers: { 'idempotency-key': idempotencyKey },
    });

  it('opposite transfers between two people neither deadlock nor lose money', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    const petr = await person(server, { level: 'full', rub: rub(1000) });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? send(ivan, petr, '70') : send(petr, ivan, '70'))),
    );
    for (const answer of answers) {
      if (answer.status !== 200) expect(answer.body.code).toBe('INSUFFICIENT_FUNDS');
    }
    const sentByIvan = answers.filter((a, i) => i % 2 === 0 && a.status === 200).length;
    const sentByPetr = answers.filter((a, i) => i % 2 === 1 && a.status === 200).length;
    expect(await balance(server, ivan)).toBe(`${1000 - 70 * sentByIvan + 70 * sentByPetr}.00`);
    expect(await balance(server, petr)).toBe(`${1000 - 70 * sentByPetr + 70 * sentByIvan}.00`);
  });

  it('parallel transfers to many people never overdraw', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const others = await Promise.all(Array.from({ length: 8 }, () => person(server)));
    const answers = await Promise.all(others.map((to) => send(ivan, to, '300')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(
      Array(5).fill('INSUFFICIENT_FUNDS'),
    );
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('parallel repeats of one Idempotency-Key move the money once', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const k = key();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(ivan, petr, '250', k)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.receipt.id)).size).toBe(1);
    expect(await balance(server, ivan)).toBe('750.00');
    expect(await balance(server, petr)).toBe('250.00');
  });
});
