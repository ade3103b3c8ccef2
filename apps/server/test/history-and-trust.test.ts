/**
 * One row and one notice per change of a held operation, each notice opening what it is about; and the
 * trusted person's lifecycle (docs/decisions/history-and-trust.md): closing, freezing or stepping down
 * ends the role and tells the person who named them, and no answer of any call fails its own contract
 * after any of these steps or a re-registration of the closed phone.
 */
import { calls } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ownCode, registeredUser } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { balance, type Person, PIN, person, settledPerson } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`history and trust (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
  });
  afterEach(() => expectLedgerSound(server));
  afterAll(() => server.close());

  const send = (from: Person, to: string, amount: string) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to, amount, currency_code: 'RUB', pin: PIN },
    });
  const settled = (roubles: number): Promise<Person> => settledPerson(server, roubles);
  const history = async (who: Person) =>
    (await server.call('GET', '/v2/wallet/transaction', { token: who.token })).body.results as {
      id: string;
      amount: string;
      description: string;
      status: string;
      hold?: { id: string; status: string };
    }[];
  const notices = async (who: Person) =>
    (await server.call('GET', '/v2/wallet/user/notification?limit=100', { token: who.token })).body as {
      results: { id: string; message: string; kind: string; about: { type: string; id?: string } }[];
      unread: number;
    };

  it('a held operation is one row whose status changes, told once per change, each notice opening it', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(40_000) });
    const paul = await person(server, { level: 'full' });
    const held = await send(ivan, paul.phone, '15000.00');
    expect(held.status, JSON.stringify(held.body)).toBe(202);

    // Funded first: the top-up's row, then the held operation's one.
    const [row, ...rest] = await history(ivan);
    expect(rest.map((r) => r.amount)).toEqual(['40000.00']);
    expect(row).toMatchObject({
      amount: '-15000.00',
      status: 'pending',
      hold: { id: held.body.hold_id, status: 'held' },
    });
    expect(row!.description).not.toMatch(/Приостановлено/);
    const heldNotices = await notices(ivan);
    // One notice for the hold, none for its money; it opens the operation's row.
    const about = heldNotices.results.filter((n) => n.kind !== 'registration' && n.kind !== 'money_in');
    expect(about.map((n) => n.about)).toEqual([{ type: 'operation', id: row!.id }]);
    expect(about[0]!.message).toMatch(/приостановлена/);
    expect(heldNotices.unread).toBe(heldNotices.results.length);

    const confirmed = await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/confirm`, {
      token: ivan.token,
      body: { confirm_code: await ownCode(server, ivan, { hold: held.body.hold_id }), pin: PIN },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const after = await history(ivan);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ amount: '-15000.00', status: 'complete', hold: { status: 'released' } });
    expect(after[0]!.description).toMatch(/^Перевод/);
    // The row now is the money that left; either id opens it.
    for (const id of [row!.id, after[0]!.id]) {
      const one = await server.call('GET', `/v2/wallet/transaction/${id}`, { token: ivan.token });
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      expect(one.body).toEqual(after[0]);
    }
    const released = (await notices(ivan)).results.filter(
      (n) => n.kind !== 'registration' && n.kind !== 'money_in',
    );
    expect(released.map((n) => n.message)).toEqual([
      expect.stringMatching(/подтверждена и выполнена/),
      expect.stringMatching(/приостановлена/),
    ]);
    expect(released.every((n) => n.about.type === 'operation' && n.about.id === row!.id)).toBe(true);
    // The payee hears of the money once, and the notice opens their incoming row.
    const payee = (await notices(paul)).results.filter((n) => n.kind !== 'registration');
    expect(payee).toHaveLength(1);
    expect(payee[0]!.about).toEqual({ type: 'operation', id: after[0]!.id });
    expect(
      (await server.call('GET', `/v2/wallet/transaction/${after[0]!.id}`, { token: paul.token })).body,
    ).toMatchObject({ amount: '15000.00', status: 'complete' });
    // Someone else's operation is as absent as a missing one.
    expect(
      (await server.call('GET', `/v2/wallet/transaction/${row!.id}`, { token: paul.token })).status,
    ).toBe(404);

    // Cancelled: the same one row, failed, and one notice that says the money is back.
    const mark = await person(server, { level: 'full' });
    const second = await send(ivan, mark.phone, '12000.00');
    expect(second.status).toBe(202);
    // A minute later, so the notices read newest first by their time.
    clock.advance(60_000);
    const cancelled = await server.call('POST', `/v2/wallet/holds/${second.body.hold_id}/cancel`, {
      token: ivan.token,
    });
    expect(cancelled.status).toBe(200);
    const rows = await history(ivan);
    expect(rows.map((r) => [r.amount, r.status, r.hold?.status])).toEqual([
      ['-12000.00', 'failed', 'cancelled'],
      ['-15000.00', 'complete', 'released'],
      ['40000.00', 'complete', undefined],
    ]);
    const told = await notices(ivan);
    const aboutSecond = told.results.filter((n) => n.about.id === rows[0]!.id);
    expect(aboutSecond.map((n) => n.message)).toEqual([
      expect.stringMatching(/не выполнена: вы отменили её/),
      expect.stringMatching(/приостановлена/),
    ]);
    expect(told.results.some((n) => /отменена, .* возвращены/.test(n.message))).toBe(false);
    expect(told.unread).toBe(told.results.length);
    expect(
      (await server.call('POST', '/v2/wallet/user/notification/read', { token: ivan.token, body: {} }))
        .status,
    ).toBe(200);
    expect((await notices(ivan)).unread).toBe(0);
    expect(await balance(server, ivan)).toBe('25000.00');
  });

  /** Every GET of the call table, for each person, passed through its answer's schema: never a 5xx. */
  async function walkContracts(people: { token: string }[], ids: string[]): Promise<void> {
    for (const [name, call] of Object.entries(calls)) {
      if (call.method !== 'GET' || name === 'events') continue;
      const paths = call.path.includes(':') ? ids.map((id) => call.path.replace(/:\w+/, id)) : [call.path];
      for (const who of people)
        for (const path of paths) {
          const answer = await server.call('GET', path, { token: who.token });
          expect(answer.status, `${name} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
          if (answer.status === 200 && typeof answer.body === 'object') {
            const parsed = call.answer.safeParse(answer.body);
            expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
          }
        }
    }
  }

  // Every GET of the call table after each step: longer than one scenario on a busy machine.
  it('closing, freezing or stepping down ends the role; the person is told and names another', async () => {
    const anna = await settled(50_000);
    const petr = await person(server, { level: 'full' });
    async function name(trusted: Person) {
      const named = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: trusted.phone, threshold: '1000', new_payees: false },
      });
      expect(named.status, JSON.stringify(named.body)).toBe(200);
      expect(named.body.left).toBeNull();
      const accepted = await server.call('POST', '/v2/wallet/trusted-person/accept', {
        token: trusted.token,
        body: { id: anna.userId },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      clock.advance(1000);
    }
    async function leftBecause(reason: string) {
      const mine = await server.call('GET', '/v2/wallet/trusted-person', { token: anna.token });
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      expect(mine.body).toMatchObject({ trusted_person: null, left: { name: 'Иван П.', reason } });
      const [last] = (await notices(anna)).results;
      expect(last).toMatchObject({ kind: 'security', about: { type: 'trusted_person' } });
      expect(last!.message).toMatch(/больше не подтверждает ваши операции/);
    }

    // Closed: what waited for the approval now waits for Anna herself.
    const olga = await person(server, { level: 'full' });
    await name(olga);
    const waiting = await send(anna, petr.phone, '5000.00');
    expect(waiting.body.status).toBe('awaiting_approval');
    const ids = [waiting.body.hold_id, anna.userId, olga.userId];
    await walkContracts([anna, olga], ids);
    const closed = await server.call('POST', '/v2/wallet/close', {
      token: olga.token,
      body: { pin: PIN, confirm_code: await ownCode(server, olga, 'close_wallet') },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await leftBecause('closed');
    const holds = await server.call('GET', '/v2/wallet/holds', { token: anna.token });
    expect(holds.body.results[0]).toMatchObject({ id: waiting.body.hold_id, status: 'held', approver: null });
    await walkContracts([anna, olga], ids);

    // The closed phone registers again: a new wallet, nobody's trusted person until named.
    const again = await registeredUser(server, { phone: olga.phone, pin: PIN });
    const reborn = { ...again, userId: '' };
    const fresh = await server.call('GET', '/v2/wallet/trusted-person', { token: reborn.token });
    expect(fresh.body).toEqual({ status: 'success', trusted_person: null, trusting: [], left: null });
    await walkContracts([anna, reborn], ids);
    await name(reborn);

    // Frozen.
    const frozen = await server.call('POST', '/v2/wallet/freeze', { token: reborn.token, body: {} });
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200);
    await leftBecause('frozen');
    await walkContracts([anna, reborn], ids);

    // Stepped down.
    const maria = await person(server, { level: 'full' });
    await name(maria);
    const left = await server.call('POST', '/v2/wallet/trusted-person/leave', {
      token: maria.token,
      body: { id: anna.userId },
    });
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(left.body.trusting).toEqual([]);
    await leftBecause('left');
    const twice = await server.call('POST', '/v2/wallet/trusted-person/leave', {
      token: maria.token,
      body: { id: anna.userId },
    });
    expect(twice.status).toBe(404);
    expect(twice.body.code).toBe('TRUSTED_PERSON_NOT_FOUND');
    await walkContracts([anna, maria], [...ids, maria.userId]);
  }, 120_000);
});
