/**
 * Antifraud by the Bank of Russia's rules and the trusted person
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the fraud database refuses and records;
 * each sign holds (the money held in the ledger, 202 and the same answer on a repeat); a confirmation (a
 * fresh SMS code and the PIN) releases once, however many arrive together; cancelling and expiry return the
 * money; the door's rules apply again at release; the trusted person approves, declines, or lets 12 hours
 * pass; a removal waits 48 hours.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sweepHolds } from '../src/modules/holds/index.ts';
import { FileFraudDb, parseFraudList } from '../src/providers/fraud-db/file.ts';
import { SANDBOX_FRAUD_CARD, SANDBOX_FRAUD_PHONE } from '../src/providers/fraud-db/sandbox.ts';
import { ownCode, registeredUser, wrongCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { operator, startOps } from './ops-helpers.ts';
import { balance, key, type Person, PIN, person, settledPerson, withdraw } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const HOUR = 3_600_000;

describe(`antifraud and the trusted person (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
  });
  afterEach(() => expectLedgerSound(server));
  afterAll(() => server.close());

  const send = (from: Person, to: string, amount: string, idempotencyKey?: string, pin = PIN) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to, amount, currency_code: 'RUB', pin },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  /** A fresh sign-in code of the person's own phone, as the app asks it before a confirmation. */
  const confirm = (who: Person, id: string, code: string, pin = PIN) =>
    server.call('POST', `/v2/wallet/holds/${id}/confirm`, {
      token: who.token,
      body: { confirm_code: code, pin },
    });
  const settled = (roubles: number) => settledPerson(server, roubles);
  async function holdStatus(id: string): Promise<string> {
    const { rows } = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM money_holds WHERE id = $1',
      [id],
    );
    return rows[0]!.status;
  }

  it('refuses a recipient the fraud database lists, whatever the amount, and records the refusal', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    const listed = await registeredUser(server, { phone: SANDBOX_FRAUD_PHONE, pin: PIN });
    expect(listed.phone).toBe(SANDBOX_FRAUD_PHONE);

    // A wrong PIN hears about its PIN, never about the recipient.
    const wrongPin = await send(ivan, SANDBOX_FRAUD_PHONE, '1.00', undefined, '9999');
    expect(wrongPin.body.code).not.toBe('RECIPIENT_FRAUD_LISTED');

    const refused = await send(ivan, SANDBOX_FRAUD_PHONE, '1.00');
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.code).toBe('RECIPIENT_FRAUD_LISTED');
    expect(refused.body.message).toMatch(/базе случаев мошенничества/);
    const card = await withdraw(server, ivan, { amount: '10', pan: SANDBOX_FRAUD_CARD });
    expect(card.status, JSON.stringify(card.body)).toBe(403);
    expect(card.body.code).toBe('RECIPIENT_FRAUD_LISTED');
    expect(await balance(server, ivan)).toBe('1000.00');

    const { rows } = await server.ctx.db.query<{ recipient_kind: string; recipient: string; source: string }>(
      'SELECT recipient_kind, recipient, source FROM fraud_refusals WHERE user_id = $1 ORDER BY id',
      [ivan.userId],
    );
    expect(rows).toEqual([
      { recipient_kind: 'phone', recipient: SANDBOX_FRAUD_PHONE, source: 'sandbox' },
      { recipient_kind: 'card', recipient: '400000******0663', source: 'sandbox' },
    ]);
  });

  it('holds a new session’s large transfer to a new payee; a repeat answers the same 202; nothing is spent twice', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(20_000) });
    const petr = await person(server, { level: 'full' });
    // Under the floor nothing is held, whatever the session.
    expect((await send(ivan, petr.phone, '100.00')).status).toBe(200);

    const paul = await person(server, { level: 'full' });
    const sameKey = key();
    const held = await send(ivan, paul.phone, '15000.00', sameKey);
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    expect(held.body).toMatchObject({ status: 'held', reasons: expect.arrayContaining(['new_session']) });
    expect(held.body.reason).toMatch(/недавно подключённого устройства/);
    const again = await send(ivan, paul.phone, '15000.00', sameKey);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(held.body);

    // The money is held in the ledger: 19,900 - 15,000 left to spend, and not one kopeck more.
    expect(await balance(server, ivan)).toBe('4900.00');
    const spend = await send(ivan, petr.phone, '5000.00');
    expect(spend.status).toBe(409);
    expect(spend.body.code).toBe('INSUFFICIENT_FUNDS');

    const holds = await server.call('GET', '/v2/wallet/holds', { token: ivan.token });
    expect(holds.body.results[0]).toMatchObject({
      id: held.body.hold_id,
      kind: 'transfer',
      amount: '15000.00',
      status: 'held',
      payee: 'Иван П.',
    });
    const notices = await server.call('GET', '/v2/wallet/user/notification', { token: ivan.token });
    expect(JSON.stringify(notices.body)).toMatch(/приостановлена/);
    const sms = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(ivan.phone)}`);
    expect(sms.body.results[0].text).toMatch(/приостановлена/);
  });

  it('holds on each sign: a security change, an unusual amount, many new payees', async () => {
    // A recent security change with a new payee.
    const anna = await settled(50_000);
    await server.ctx.db.query('UPDATE users SET security_changed_at = $2 WHERE id = $1', [
      anna.userId,
      clock.now(),
    ]);
    const changed = await send(anna, (await person(server, { level: 'full' })).phone, '12000.00');
    expect(changed.status).toBe(202);
    expect(changed.body.reasons).toContain('security_change');
    expect(changed.body.reasons).not.toContain('new_session');

    // Over three times the largest of 90 days, to a known payee, from an old session.
    const boris = await settled(100_000);
    const known = await person(server, { level: 'full' });
    expect((await send(boris, known.phone, '5000.00')).status).toBe(200);
    // What the session did itself makes a payee known and an amount usual only once a day old.
    clock.advance(25 * HOUR);
    expect((await send(boris, known.phone, '15000.00')).status).toBe(200);
    const large = await send(boris, known.phone, '46000.00');
    expect(large.status).toBe(202);
    expect(large.body.reasons).toEqual(['large_amount']);

    // The third new payee within an hour, from the floor.
    const vera = await settled(100_000);
    for (let i = 0; i < 2; i++)
      expect((await send(vera, (await person(server, { level: 'full' })).phone, '100.00')).status).toBe(200);
    const many = await send(vera, (await person(server, { level: 'full' })).phone, '10000.00');
    expect(many.status).toBe(202);
    expect(many.body.reasons).toContain('many_new_payees');
  });

  it('a confirmation takes a fresh code and the PIN, and releases once however many arrive together', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(30_000) });
    const petr = await person(server, { level: 'full' });
    const held = await send(ivan, petr.phone, '15000.00');
    expect(held.status).toBe(202);
    const id = held.body.hold_id;

    const code = await ownCode(server, ivan, { hold: id });
    const badCode = await confirm(ivan, id, wrongCode(code));
    expect(badCode.status).toBe(400);
    const badPin = await confirm(ivan, id, code, '9999');
    expect(badPin.status).toBe(400);
    expect(await holdStatus(id)).toBe('held');

    const both = await Promise.all([confirm(ivan, id, code), confirm(ivan, id, code)]);
    const released = both.filter((answer) => answer.status === 200);
    expect(released.length, JSON.stringify(both.map((b) => b.body))).toBeGreaterThanOrEqual(1);
    expect(released[0]!.body.hold).toMatchObject({ id, status: 'released' });
    expect(await balance(server, petr)).toBe('15000.00');
    expect(await balance(server, ivan)).toBe('15000.00');
    expect(await holdStatus(id)).toBe('released');
    // A confirmation after the release changes nothing, whatever its code.
    const late = await confirm(ivan, id, '0000');
    expect(late.status).toBe(200);
    expect(await balance(server, petr)).toBe('15000.00');
  });

  it('holds a request’s payment too: the request stays pending until the release marks it paid', async () => {
    const asker = await person(server, { level: 'full' });
    const payer = await person(server, { level: 'full', rub: rub(30_000) });
    const made = await server.call('POST', '/v2/wallet/request', {
      token: asker.token,
      body: { currency_code: 'RUB', amount: '12000', phone: payer.phone },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const held = await server.call('POST', `/v2/wallet/request/${made.body.id}/pay`, {
      token: payer.token,
      body: { pin: PIN },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const pending = await server.call('GET', '/v2/wallet/request?direction=incoming', { token: payer.token });
    expect(JSON.stringify(pending.body)).toContain('"pending"');
    const released = await confirm(
      payer,
      held.body.hold_id,
      await ownCode(server, payer, { hold: held.body.hold_id }),
    );
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const { rows } = await server.ctx.db.query<{ status: string; paid_by: string }>(
      'SELECT status, paid_by FROM payment_requests WHERE id = $1',
      [made.body.id],
    );
    expect(rows[0]).toEqual({ status: 'paid', paid_by: payer.userId });
    expect(await balance(server, asker)).toBe('12000.00');
  });

  it('cancelling and two days without an answer return the money', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(40_000) });
    const petr = await person(server, { level: 'full' });
    const first = await send(ivan, petr.phone, '15000.00');
    const second = await send(ivan, petr.phone, '16000.00');
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(await balance(server, ivan)).toBe('9000.00');

    const cancelled = await server.call('POST', `/v2/wallet/holds/${first.body.hold_id}/cancel`, {
      token: ivan.token,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.hold.status).toBe('cancelled');
    expect(await balance(server, ivan)).toBe('24000.00');
    // Another person's hold is as absent as a missing one.
    const stranger = await server.call('POST', `/v2/wallet/holds/${second.body.hold_id}/cancel`, {
      token: petr.token,
    });
    expect(stranger.status).toBe(404);

    clock.advance(47 * HOUR);
    await sweepHolds(server.ctx);
    expect(await holdStatus(second.body.hold_id)).toBe('held');
    clock.advance(2 * HOUR);
    expect((await sweepHolds(server.ctx)).expired).toBeGreaterThanOrEqual(1);
    expect(await holdStatus(second.body.hold_id)).toBe('expired');
    expect(await balance(server, ivan)).toBe('40000.00');
    expect(await balance(server, petr)).toBe('0.00');
    // No code is sent for a hold that has ended, and none confirms it.
    const late = await confirm(ivan, second.body.hold_id, '0000');
    expect(late.status).toBe(409);
  });

  it('the freeze and the limits still apply at release: a refused release leaves the money held', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(30_000) });
    const petr = await person(server, { level: 'simplified', rub: rub(50_000) });
    const held = await send(ivan, petr.phone, '15000.00');
    expect(held.status).toBe(202);
    const id = held.body.hold_id;

    // The payee's balance cap (60,000 at simplified) is decided at release.
    const capped = await confirm(ivan, id, await ownCode(server, ivan, { hold: id }));
    expect(capped.status, JSON.stringify(capped.body)).toBe(409);
    expect(capped.body.code).toBe('RECIPIENT_UNAVAILABLE');
    expect(await holdStatus(id)).toBe('held');
    expect(await balance(server, ivan)).toBe('15000.00');

    await server.ctx.db.query(`UPDATE users SET identification_level = 'full' WHERE id = $1`, [petr.userId]);
    expect((await server.call('POST', '/v2/wallet/freeze', { token: ivan.token, body: {} })).status).toBe(
      200,
    );
    const frozen = await confirm(ivan, id, await ownCode(server, ivan, { hold: id }));
    expect(frozen.status).toBe(403);
    expect(frozen.body.code).toBe('WALLET_FROZEN');
    expect(await holdStatus(id)).toBe('held');
    expect(await balance(server, petr)).toBe('50000.00');
  });

  describe('the trusted person', () => {
    async function pair(threshold = '1000') {
      const anna = await settled(50_000);
      const olga = await person(server, { level: 'full' });
      const named = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: olga.phone, threshold, new_payees: false },
      });
      expect(named.status, JSON.stringify(named.body)).toBe(200);
      expect(named.body.trusted_person).toMatchObject({ phone: olga.phone, status: 'pending' });
      const asked = await server.call('GET', '/v2/wallet/trusted-person', { token: olga.token });
      expect(asked.body.trusting).toEqual([
        { id: anna.userId, name: 'Иван П.', phone: anna.phone, status: 'pending' },
      ]);
      const accepted = await server.call('POST', '/v2/wallet/trusted-person/accept', {
        token: olga.token,
        body: { id: anna.userId },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      return { anna, olga };
    }
    const approvalsOf = async (who: Person) =>
      (await server.call('GET', '/v2/wallet/approvals', { token: who.token })).body.results;

    it('approves from their own session with their own PIN; the money leaves once', async () => {
      const { anna, olga } = await pair();
      const petr = await person(server, { level: 'full' });
      expect((await send(anna, petr.phone, '999.00')).status).toBe(200);
      const waiting = await send(anna, petr.phone, '5000.00');
      expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
      expect(waiting.body).toMatchObject({ status: 'awaiting_approval', reasons: ['trusted_threshold'] });
      expect(await balance(server, anna)).toBe('44001.00');
      // The person cannot confirm it past their trusted person.
      expect((await confirm(anna, waiting.body.hold_id, '0000')).status).toBe(409);
      expect(
        (await server.call('POST', `/v2/wallet/holds/${waiting.body.hold_id}/code`, { token: anna.token }))
          .status,
      ).toBe(409);

      const [approval] = await approvalsOf(olga);
      expect(approval).toMatchObject({ id: waiting.body.hold_id, amount: '5000.00', person: 'Иван П.' });
      const sms = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(olga.phone)}`);
      expect(sms.body.results[0].text).toMatch(/просит одобрить/);
      const approve = (pin: string) =>
        server.call('POST', `/v2/wallet/approvals/${approval.id}/approve`, {
          token: olga.token,
          body: { pin },
        });
      expect((await approve('9999')).status).toBe(400);
      // Anna's PIN is not Olga's proof, and Anna cannot approve what Olga is asked.
      const byAnna = await server.call('POST', `/v2/wallet/approvals/${approval.id}/approve`, {
        token: anna.token,
        body: { pin: PIN },
      });
      expect(byAnna.status).toBe(404);
      const approved = await Promise.all([approve(PIN), approve(PIN)]);
      expect(approved.map((a) => a.status)).toEqual([200, 200]);
      expect(await balance(server, petr)).toBe('5999.00');
      expect(await balance(server, anna)).toBe('44001.00');
    });

    it('a decline and 12 hours without an answer return the money', async () => {
      const { anna, olga } = await pair();
      const petr = await person(server, { level: 'full' });
      const first = await send(anna, petr.phone, '2000.00');
      const second = await send(anna, petr.phone, '3000.00');
      expect(await balance(server, anna)).toBe('45000.00');
      const declined = await server.call('POST', `/v2/wallet/approvals/${first.body.hold_id}/decline`, {
        token: olga.token,
      });
      expect(declined.status).toBe(200);
      expect(declined.body.hold.status).toBe('declined');
      expect(await balance(server, anna)).toBe('47000.00');

      clock.advance(13 * HOUR);
      await sweepHolds(server.ctx);
      expect(await holdStatus(second.body.hold_id)).toBe('expired');
      expect(await balance(server, anna)).toBe('50000.00');
      expect(await balance(server, petr)).toBe('0.00');
    });

    it('a removal and a raise wait 48 hours; a lowering is at once; both are told', async () => {
      const { anna, olga } = await pair('3000');
      const petr = await person(server, { level: 'full' });
      expect((await send(anna, petr.phone, '2000.00')).status).toBe(200);

      const lowered = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: olga.phone, threshold: '1000', new_payees: false },
      });
      expect(lowered.body.trusted_person).toMatchObject({ threshold: '1000.00', pending: null });
      expect((await send(anna, petr.phone, '2000.00')).status).toBe(202);

      const raised = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: olga.phone, threshold: '9000', new_payees: false },
      });
      expect(raised.body.trusted_person).toMatchObject({
        threshold: '1000.00',
        pending: { threshold: '9000.00', new_payees: false },
      });
      expect((await send(anna, petr.phone, '2000.00')).status).toBe(202);

      const removed = await server.call('DELETE', '/v2/wallet/trusted-person', { token: anna.token });
      expect(removed.status).toBe(200);
      expect(removed.body.trusted_person.status).toBe('leaving');
      expect(Date.parse(removed.body.trusted_person.effective_at) - clock.now().getTime()).toBe(48 * HOUR);
      const told = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(olga.phone)}`);
      expect(told.body.results[0].text).toMatch(/удаление вступит в силу через 48 часов/);
      clock.advance(47 * HOUR);
      expect((await send(anna, petr.phone, '1500.00')).status).toBe(202);

      clock.advance(2 * HOUR);
      await sweepHolds(server.ctx);
      const after = await server.call('GET', '/v2/wallet/trusted-person', { token: anna.token });
      expect(after.body.trusted_person).toBeNull();
      expect((await send(anna, petr.phone, '1500.00')).status).toBe(200);
    });

    it('refuses oneself and a phone with no wallet', async () => {
      const anna = await person(server, { level: 'full' });
      const self = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: anna.phone, threshold: '1000' },
      });
      expect(self.body.code).toBe('TRUSTED_PERSON_SELF');
      const nobody = await server.call('PUT', '/v2/wallet/trusted-person', {
        token: anna.token,
        body: { phone: '+79990000001', threshold: '1000' },
        headers: { 'accept-language': 'en' },
      });
      expect(nobody.status).toBe(404);
      expect(nobody.body.message).toMatch(/E-Wallet user/);
    });
  });

  it('what an instance keeps of the local list and of who has no trusted person follows every change', async () => {
    const ivan = await person(server, { level: 'full', rub: rub(1000) });
    const mule = await person(server, { level: 'full' });
    const pays = async () => (await send(ivan, mule.phone, '1.00', key())).status;
    // Warm: the instance now knows Ivan has no trusted person and has read the local list.
    for (let i = 0; i < 3; i++) expect(await pays()).toBe(200);
    /** The status a payment answers once the database's notice has reached this instance. */
    async function settlesOn(status: number): Promise<void> {
      let last = 0;
      for (let i = 0; i < 40 && last !== status; i++) {
        last = await pays();
        if (last !== status) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(last).toBe(status);
    }
    // Written as another instance would (no announcement in this process): the notice alone tells.
    await server.ctx.db.query(
      `INSERT INTO fraud_list (id, kind, value, reason, proposed_by, proposed_at, confirmed_by, confirmed_at)
       VALUES (gen_random_uuid(), 'phone', $1, 'test', gen_random_uuid(), now(), gen_random_uuid(), now())`,
      [mule.phone],
    );
    await settlesOn(403);
    await server.ctx.db.query(`UPDATE fraud_list SET removed_at = now() WHERE value = $1`, [mule.phone]);
    await settlesOn(200);
    const trusted = await person(server, { level: 'full' });
    await server.ctx.db.query(
      `INSERT INTO trusted_people (user_id, trusted_id, threshold, new_payees, status, created_at, accepted_at)
       VALUES ($1, $2, 0, false, 'active', now(), now())`,
      [ivan.userId, trusted.userId],
    );
    await settlesOn(202);
  });

  it('the back office releases or refuses a held operation (audited) and keeps the local list under four eyes', async () => {
    const backOffice = await startOps(server);
    const support = await operator(server, backOffice, 'support');
    const ivan = await person(server, { level: 'full', rub: rub(40_000) });
    const petr = await person(server, { level: 'full' });
    const first = await send(ivan, petr.phone, '15000.00');
    const second = await send(ivan, petr.phone, '16000.00');
    const queue = await backOffice.call('GET', '/ops/v1/holds', { token: support.token });
    expect(queue.status).toBe(200);
    expect(queue.body.results.find((row: { id: string }) => row.id === first.body.hold_id)).toMatchObject({
      status: 'held',
      amount: '15000.00',
      reasons: expect.arrayContaining(['new_session']),
    });
    // From the amount floor up, support proposes the release and a second, compliance operator makes it.
    const proposedRelease = await backOffice.call('POST', `/ops/v1/holds/${first.body.hold_id}/release`, {
      token: support.token,
      body: { reason: 'Позвонили клиенту: перевод его' },
    });
    expect(proposedRelease.body, JSON.stringify(proposedRelease.body)).toMatchObject({
      status: 'release_proposed',
    });
    const releaser = await operator(server, backOffice, 'compliance');
    const released = await backOffice.call('POST', `/ops/v1/holds/${first.body.hold_id}/release`, {
      token: releaser.token,
      body: { reason: 'Проверил звонок' },
    });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const refused = await backOffice.call('POST', `/ops/v1/holds/${second.body.hold_id}/refuse`, {
      token: support.token,
      body: { reason: 'Клиента уговаривали по телефону' },
    });
    expect(refused.status).toBe(200);
    expect(await balance(server, petr)).toBe('15000.00');
    expect(await balance(server, ivan)).toBe('25000.00');
    const { rows: audit } = await server.ctx.db.query<{ action: string }>(
      `SELECT action FROM ops_audit WHERE object_type = 'hold' ORDER BY id`,
    );
    expect(audit.map((row) => row.action)).toEqual(['hold_release_propose', 'hold_release', 'hold_refuse']);

    const proposer = await operator(server, backOffice, 'compliance');
    const checker = await operator(server, backOffice, 'compliance');
    const mule = await person(server, { level: 'full' });
    const proposed = await backOffice.call('POST', '/ops/v1/fraud-list', {
      token: proposer.token,
      body: { kind: 'phone', value: mule.phone, reason: 'Жалобы трёх клиентов' },
    });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    const id = proposed.body.id;
    // Proposed is not yet listed, and its proposer cannot confirm it.
    expect((await send(ivan, mule.phone, '10.00')).status).toBe(200);
    const own = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/confirm`, { token: proposer.token });
    expect(own.body.code).toBe('FRAUD_LIST_SECOND_OPERATOR');
    const byOther = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/confirm`, {
      token: checker.token,
    });
    expect(byOther.status).toBe(200);
    const listed = await send(ivan, mule.phone, '10.00');
    expect(listed.body.code).toBe('RECIPIENT_FRAUD_LISTED');
    const { rows: refusals } = await server.ctx.db.query<{ source: string }>(
      'SELECT source FROM fraud_refusals WHERE user_id = $1',
      [ivan.userId],
    );
    expect(refusals).toEqual([{ source: 'local' }]);
    // Support reads the list but may not change it.
    const bySupport = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/remove`, {
      token: support.token,
      body: { reason: 'ошибка' },
    });
    expect(bySupport.status).toBe(403);
    const asked = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/remove`, {
      token: proposer.token,
      body: { reason: 'Ошибка: номер сменил владельца' },
    });
    expect(asked.body.status).toBe('removal_proposed');
    expect((await send(ivan, mule.phone, '10.00')).body.code).toBe('RECIPIENT_FRAUD_LISTED');
    // The list names both pairs of eyes: who proposed and confirmed the entry, who asked to remove it.
    const list = await backOffice.call('GET', '/ops/v1/fraud-list', { token: checker.token });
    expect(list.body.results.find((row: { id: string }) => row.id === id)).toMatchObject({
      value: mule.phone,
      proposed_by_email: proposer.email,
      confirmed_by_email: checker.email,
      removal_proposed_by_email: proposer.email,
      removal_reason: 'Ошибка: номер сменил владельца',
    });
    // The removal's proposer cannot finish it either (the back office hides the button; this is the rule).
    const ownRemoval = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/remove`, {
      token: proposer.token,
      body: { reason: 'Сам и подтверждаю' },
    });
    expect(ownRemoval.body.code).toBe('FRAUD_LIST_SECOND_OPERATOR');
    expect((await send(ivan, mule.phone, '10.00')).body.code).toBe('RECIPIENT_FRAUD_LISTED');
    const removed = await backOffice.call('POST', `/ops/v1/fraud-list/${id}/remove`, {
      token: checker.token,
      body: { reason: 'Согласен' },
    });
    expect(removed.body.status).toBe('removed');
    expect((await send(ivan, mule.phone, '10.00')).status).toBe(200);
    await backOffice.app.close();
  });

  it('reads the regulator’s export from a file and again when it changes', async () => {
    expect(
      parseFraudList('# header\n+7 (999) 000-11-22;case 1\n8 999 000 33 44\n4000 0000 0000 0663\n'),
    ).toEqual({
      phones: new Set(['+79990001122', '+79990003344']),
      cards: new Set(['4000000000000663']),
      accounts: new Set(),
    });
    const folder = mkdtempSync(join(tmpdir(), 'fraud-db-'));
    const path = join(folder, 'export.csv');
    writeFileSync(path, '+79990005555\n');
    const db = new FileFraudDb(path);
    expect(await db.listed({ phone: '+79990005555' })).toBe('phone');
    writeFileSync(path, '+79990006666\n40817810099910004312\n');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await db.listed({ phone: '+79990005555' })).toBeNull();
    expect(await db.listed({ account: '40817810099910004312' })).toBe('account');
  });
});
