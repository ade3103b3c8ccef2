/**
 * Operators' four eyes, as the outside test tried them (issue 53, findings 6 and 7):
 * - an admin made a compliance operator, active at once, proposed a fraud-list removal and had the new
 *   operator complete it: now a role that approves waits for a second admin, and the one four-eyes rule
 *   (the approver is neither the proposer nor anyone the proposer made or changed) decides every
 *   four-eyes action: the fraud list, refunds, role confirmations, releases of held money;
 * - a support operator alone released a hold awaiting the trusted person, and the payee was paid: now
 *   such a hold is the trusted person's (an operator may only refuse it), and an antifraud hold from
 *   the amount floor up is released by a second operator with the compliance role.
 */
import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { freshAddress, type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { balance, type Person, PIN, person } from './withdrawal-helpers.ts';

describe(`four eyes on every operators' action that needs two (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let admin: TestOperator;
  let secondAdmin: TestOperator;
  const clock = new TestClock(Date.parse('2026-05-04T09:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
    back = await startOps(server);
    admin = await operator(server, back, 'admin');
    secondAdmin = await operator(server, back, 'admin');
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });
  const post = (who: { token: string }, url: string, body: unknown = {}) =>
    back.call('POST', url, { token: who.token, body });
  const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

  /** An operator an admin invites, who follows the link and signs in. */
  async function invited(by: TestOperator, role: string): Promise<{ id: string; token: string; body: any }> {
    const email = `${role}-${randomUUID()}@ops.example`;
    const made = await post(by, '/ops/v1/operators', { email, role });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const started = await back.call('POST', '/ops/v1/setup/start', {
      body: { token: made.body.setup.token },
    });
    const secret = started.body.totp_secret as string;
    const password = `made-by-an-admin-${randomUUID()}`;
    const finished = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token: made.body.setup.token, password, totp: await code(secret) },
      address: freshAddress(),
    });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    clock.advance(30_000);
    const signed = await back.call('POST', '/ops/v1/auth/login', {
      body: { email, password, totp: await code(secret) },
      address: freshAddress(),
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    return { id: made.body.id, token: signed.body.token, body: made.body };
  }

  const transfer = (from: Person, to: Person, amount: string) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
      headers: { 'idempotency-key': randomUUID() },
    });

  it('an admin cannot make a compliance operator and have them complete the admin’s fraud-list removal', async () => {
    const proposer = await operator(server, back, 'compliance');
    const checker = await operator(server, back, 'compliance');
    const mule = await person(server, { level: 'full' });
    const entry = await post(proposer, '/ops/v1/fraud-list', {
      kind: 'phone',
      value: mule.phone,
      reason: 'Жалобы клиентов',
    });
    expect((await post(checker, `/ops/v1/fraud-list/${entry.body.id}/confirm`)).status).toBe(200);

    // The new operator is support until a second admin grants compliance: no approving at once.
    const puppet = await invited(admin, 'compliance');
    expect(puppet.body).toMatchObject({ role: 'support', pending_role: 'compliance' });
    expect(
      (await post(admin, `/ops/v1/fraud-list/${entry.body.id}/remove`, { reason: 'Снимаю' })).body.status,
    ).toBe('removal_proposed');
    const asSupport = await post(puppet, `/ops/v1/fraud-list/${entry.body.id}/remove`, { reason: 'Да' });
    expect([asSupport.status, asSupport.body.code]).toEqual([403, 'OPERATOR_FORBIDDEN']);
    // The admin who proposed the role cannot grant it; the second admin can.
    expect((await post(admin, `/ops/v1/operators/${puppet.id}/role/confirm`)).body.code).toBe(
      'ROLE_SECOND_ADMIN',
    );
    expect((await post(secondAdmin, `/ops/v1/operators/${puppet.id}/role/confirm`)).status).toBe(200);
    // Now compliance, but made by the removal's proposer: no second pair of eyes.
    const related = await post(puppet, `/ops/v1/fraud-list/${entry.body.id}/remove`, { reason: 'Да' });
    expect([related.status, related.body.code]).toEqual([403, 'FOUR_EYES_RELATED']);
    expect(related.body.message).toMatch(/[А-Яа-я]/);
    const { rows } = await server.ctx.db.query('SELECT removed_at FROM fraud_list WHERE id = $1', [
      entry.body.id,
    ]);
    expect(rows[0]).toEqual({ removed_at: null });
    // The same for a new entry the admin proposes.
    const other = await person(server, { level: 'full' });
    const second = await post(admin, '/ops/v1/fraud-list', {
      kind: 'phone',
      value: other.phone,
      reason: 'Жалоба',
    });
    expect((await post(puppet, `/ops/v1/fraud-list/${second.body.id}/confirm`)).body.code).toBe(
      'FOUR_EYES_RELATED',
    );
    // An independent operator completes both.
    expect(
      (await post(checker, `/ops/v1/fraud-list/${entry.body.id}/remove`, { reason: 'Согласен' })).body,
    ).toMatchObject({ status: 'removed' });
    expect((await post(checker, `/ops/v1/fraud-list/${second.body.id}/confirm`)).body.status).toBe('active');
  });

  it('an admin the proposer made cannot confirm the role the proposer proposed', async () => {
    const made = await invited(admin, 'admin');
    expect(made.body).toMatchObject({ role: 'support', pending_role: 'admin' });
    expect((await post(secondAdmin, `/ops/v1/operators/${made.id}/role/confirm`)).status).toBe(200);
    const target = await operator(server, back, 'support');
    expect((await post(admin, `/ops/v1/operators/${target.id}/role`, { role: 'finance' })).body.status).toBe(
      'proposed',
    );
    const refused = await post(made, `/ops/v1/operators/${target.id}/role/confirm`);
    expect([refused.status, refused.body.code]).toEqual([403, 'FOUR_EYES_RELATED']);
    expect((await post(secondAdmin, `/ops/v1/operators/${target.id}/role/confirm`)).body.role).toBe(
      'finance',
    );
  });

  it('a hold awaiting the trusted person is theirs: an operator may only refuse it', async () => {
    const support = await operator(server, back, 'support');
    const ivan = await person(server, { level: 'full', rub: 2_000_000n });
    const petr = await person(server, { level: 'full' });
    const trusted = await person(server, { level: 'full' });
    await server.ctx.db.query(
      `INSERT INTO trusted_people (user_id, trusted_id, threshold, new_payees, status, created_at, accepted_at)
       VALUES ($1, $2, 100000, false, 'active', $3, $3)`,
      [ivan.userId, trusted.userId, clock.now()],
    );
    const held = await transfer(ivan, petr, '5000.00');
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    for (const who of [support, admin]) {
      const released = await post(who, `/ops/v1/holds/${held.body.hold_id}/release`, {
        reason: 'Клиент просит',
      });
      expect([released.status, released.body.code]).toEqual([409, 'HOLD_AWAITS_TRUSTED_PERSON']);
    }
    expect(await balance(server, petr)).toBe('0.00');
    const { rows } = await server.ctx.db.query('SELECT status FROM money_holds WHERE id = $1', [
      held.body.hold_id,
    ]);
    expect(rows[0]).toEqual({ status: 'awaiting_approval' });
    // Refusing stays an operator's: the money returns.
    const refused = await post(support, `/ops/v1/holds/${held.body.hold_id}/refuse`, { reason: 'Мошенники' });
    expect(refused.status).toBe(200);
    expect(await balance(server, ivan)).toBe('20000.00');
  });

  it('an antifraud hold from the floor up is released by a second, compliance operator', async () => {
    const support = await operator(server, back, 'support');
    const otherSupport = await operator(server, back, 'support');
    const compliance = await operator(server, back, 'compliance');
    const ivan = await person(server, { level: 'full', rub: 4_000_000n });
    const petr = await person(server, { level: 'full' });
    // A fresh session's large transfer to a new payee: held on a sign.
    const held = await transfer(ivan, petr, '15000.00');
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const url = `/ops/v1/holds/${held.body.hold_id}/release`;
    const proposed = await post(support, url, { reason: 'Позвонил клиенту' });
    expect(proposed.body).toMatchObject({ status: 'release_proposed' });
    expect(await balance(server, petr)).toBe('0.00');
    const again = await post(support, url, { reason: 'Ещё раз' });
    expect([again.status, again.body.code]).toEqual([403, 'HOLD_RELEASE_SECOND_OPERATOR']);
    const notCompliance = await post(otherSupport, url, { reason: 'Согласен' });
    expect([notCompliance.status, notCompliance.body.code]).toEqual([403, 'HOLD_RELEASE_COMPLIANCE']);
    expect(await balance(server, petr)).toBe('0.00');
    const queue = await back.call('GET', '/ops/v1/holds', { token: compliance.token });
    expect(queue.body.results.find((row: { id: string }) => row.id === held.body.hold_id)).toMatchObject({
      status: 'held',
      release_proposed_by_email: support.email,
      release_reason: 'Позвонил клиенту',
      needs_two: true,
    });
    const released = await post(compliance, url, { reason: 'Проверил звонок' });
    expect(released.body, JSON.stringify(released.body)).toMatchObject({ status: 'released' });
    expect(await balance(server, petr)).toBe('15000.00');
    const { rows } = await server.ctx.db.query<{ action: string; operator_id: string }>(
      `SELECT action, operator_id FROM ops_audit WHERE object_id = $1 ORDER BY id`,
      [held.body.hold_id],
    );
    expect(rows).toEqual([
      { action: 'hold_release_propose', operator_id: support.id },
      { action: 'hold_release', operator_id: compliance.id },
    ]);
  });
});
