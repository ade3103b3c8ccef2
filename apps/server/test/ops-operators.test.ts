/**
 * Operators managed in the back office (docs/decisions/back-office.md#the-back-office-on-the-apps-stack): a
 * new operator sets their own password and TOTP through a one-time link; roles that approve refunds or manage
 * operators wait for a second administrator; disabling ends every session at once; a TOTP reset is finished
 * by the operator with their own password; an approver the proposer made or changed cannot approve their
 * refund; the sign-in is throttled by address, answers alike for every e-mail and never ends anyone's
 * session.
 */
import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayApprove } from '../src/ops/four-eyes.ts';
import { SIGN_IN_FAILURES } from '../src/ops/sign-in-throttle.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { freshAddress, type OpsServer, operator, startOps, type TestOperator } from './ops-helpers.ts';
import { PIN, person } from './withdrawal-helpers.ts';

describe(`operators in the back office (${databaseLabel})`, () => {
  let server: TestServer;
  let back: OpsServer;
  let admin: TestOperator;
  let second: TestOperator;
  const clock = new TestClock(Date.parse('2026-04-01T09:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    back = await startOps(server);
    admin = await operator(server, back, 'admin');
    second = await operator(server, back, 'admin');
  }, 180_000);
  afterAll(async () => {
    await back.app.close();
    await server.close();
  });
  const as = (who: { token: string }) => ({
    get: (url: string) => back.call('GET', url, { token: who.token }),
    post: (url: string, body: unknown = {}) => back.call('POST', url, { token: who.token, body }),
  });
  const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const signIn = async (email: string, password: string, secret: string, address = freshAddress()) =>
    back.call('POST', '/ops/v1/auth/login', {
      body: { email, password, totp: await code(secret) },
      address,
      headers: { 'accept-language': 'en' },
    });
  /** Follows a one-time link as the new operator does: opens it, sets a password, proves the code. */
  const setUp = async (token: string, password: string) => {
    const started = await back.call('POST', '/ops/v1/setup/start', { body: { token } });
    expect(started.status).toBe(200);
    const secret = started.body.totp_secret as string;
    expect(started.body.otpauth_uri).toContain(`secret=${secret}`);
    const finished = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token, password, totp: await code(secret) },
      address: freshAddress(),
    });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    clock.advance(30_000);
    return secret;
  };
  const invite = async (by: TestOperator, role: string) => {
    const email = `${role}-${randomUUID()}@ops.example`;
    const made = await as(by).post('/ops/v1/operators', { email, role });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return { email, id: made.body.id as string, body: made.body };
  };

  it('a new operator sets their own password and TOTP through a one-time link; nobody else sees them', async () => {
    const { email, id, body } = await invite(admin, 'support');
    // The answer holds a link and no credential.
    expect(body).toMatchObject({
      email,
      role: 'support',
      pending_role: null,
      setup: { purpose: 'credentials' },
    });
    expect(JSON.stringify(body)).not.toMatch(/password|totp_secret/);
    const token = body.setup.token as string;
    // Before the link is followed nobody can sign in as them, and the answer is an unknown e-mail's.
    const before = await signIn(email, 'anything-at-all-long', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    const unknown = await signIn(
      `nobody-${randomUUID()}@ops.example`,
      'anything-at-all-long',
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    expect([before.status, before.body]).toEqual([unknown.status, unknown.body]);

    // A wrong code sets nothing; the link still works.
    const started = await back.call('POST', '/ops/v1/setup/start', { body: { token } });
    const wrong = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token, password: 'my-own-long-password', totp: '000000' },
      address: freshAddress(),
    });
    expect(wrong.body.code).toBe('SETUP_CODE_WRONG');
    expect(started.body.email).toBe(email);
    // Opening it again gives a new secret: whoever opened it before holds nothing.
    const secret = await setUp(token, 'my-own-long-password');
    expect(secret).not.toBe(started.body.totp_secret);
    // Used up.
    expect((await back.call('POST', '/ops/v1/setup/start', { body: { token } })).body.code).toBe(
      'SETUP_LINK_INVALID',
    );
    const signed = await signIn(email, 'my-own-long-password', secret);
    expect(signed.status).toBe(200);
    expect((await as(signed.body).get('/ops/v1/me')).body).toMatchObject({ id, email, role: 'support' });
    const audit = await as(admin).get(`/ops/v1/audit?operator=${id}`);
    expect(audit.body.results.map((a: { action: string }) => a.action)).toEqual([
      'sign_in',
      'operator_setup',
      'sign_in_failed',
    ]);
  });

  it('a role that approves refunds or manages operators waits for a second administrator', async () => {
    const { email, id, body } = await invite(admin, 'finance');
    expect(body).toMatchObject({ role: 'support', pending_role: 'finance' });
    const secret = await setUp(body.setup.token, 'finance-long-password');
    const finance = (await signIn(email, 'finance-long-password', secret)).body;
    // Support until confirmed: no refunds.
    expect((await as(finance).get('/ops/v1/me')).body.role).toBe('support');
    expect((await as(admin).post(`/ops/v1/operators/${id}/role/confirm`)).body.code).toBe(
      'ROLE_SECOND_ADMIN',
    );
    expect((await as(second).post(`/ops/v1/operators/${id}/role/confirm`)).body).toMatchObject({
      role: 'finance',
      status: 'changed',
    });
    expect((await as(finance).get('/ops/v1/me')).body.role).toBe('finance');
    expect((await as(second).post(`/ops/v1/operators/${id}/role/confirm`)).body.code).toBe(
      'ROLE_NOT_PROPOSED',
    );

    // Making an admin is proposed too; lowering a role is done at once.
    expect((await as(admin).post(`/ops/v1/operators/${id}/role`, { role: 'admin' })).body).toMatchObject({
      role: 'finance',
      pending_role: 'admin',
      status: 'proposed',
    });
    expect((await as(finance).get('/ops/v1/me')).body.role).toBe('finance');
    // Compliance approves too (the fraud list, releases of held money): it waits as well.
    expect(
      (await as(second).post(`/ops/v1/operators/${id}/role`, { role: 'compliance' })).body,
    ).toMatchObject({ role: 'finance', pending_role: 'compliance', status: 'proposed' });
    expect((await as(second).post(`/ops/v1/operators/${id}/role`, { role: 'support' })).body).toMatchObject({
      role: 'support',
      pending_role: null,
      status: 'changed',
    });
    expect((await as(finance).get('/ops/v1/me')).body.role).toBe('support');
    // Nobody changes their own role, and a non-admin changes nobody's.
    expect((await as(admin).post(`/ops/v1/operators/${admin.id}/role`, { role: 'support' })).body.code).toBe(
      'OPERATOR_SELF',
    );
    expect((await as(finance).post(`/ops/v1/operators/${admin.id}/role`, { role: 'support' })).status).toBe(
      403,
    );
    expect((await as(admin).post(`/ops/v1/operators/${id}/role`, { role: 'boss' })).status).toBe(400);
  });

  it('disabling an operator ends their sessions at once; they can no longer sign in', async () => {
    const target = await operator(server, back, 'support');
    clock.advance(30_000);
    const other = await signIn(target.email, target.password, target.secret);
    expect(other.status).toBe(200);
    expect((await as(target).post(`/ops/v1/operators/${admin.id}/disable`, { reason: 'x' })).status).toBe(
      403,
    );
    expect((await as(admin).post(`/ops/v1/operators/${admin.id}/disable`, { reason: 'x' })).body.code).toBe(
      'OPERATOR_SELF',
    );
    expect((await as(admin).post(`/ops/v1/operators/${target.id}/disable`, {})).body.code).toBe(
      'FIELD_REQUIRED',
    );
    const disabled = await as(admin).post(`/ops/v1/operators/${target.id}/disable`, { reason: 'Уволился' });
    expect(disabled.body).toEqual({ id: target.id, status: 'disabled' });
    expect((await as(target).get('/ops/v1/me')).body.code).toBe('INVALID_TOKEN');
    expect((await as(other.body).get('/ops/v1/me')).body.code).toBe('INVALID_TOKEN');
    clock.advance(30_000);
    expect((await signIn(target.email, target.password, target.secret)).body.code).toBe(
      'OPERATOR_SIGN_IN_FAILED',
    );
    expect((await as(admin).post(`/ops/v1/operators/${target.id}/disable`, { reason: 'x' })).body.code).toBe(
      'OPERATOR_DISABLED',
    );
    const { rows } = await server.ctx.db.query<{ open: number }>(
      'SELECT count(*)::int AS open FROM ops_sessions WHERE operator_id = $1 AND revoked_at IS NULL',
      [target.id],
    );
    expect(rows[0]!.open).toBe(0);
    const listed = await as(admin).get('/ops/v1/operators?limit=100');
    expect(listed.body.results.find((o: { id: string }) => o.id === target.id).disabled_at).not.toBeNull();
  });

  it('a TOTP reset ends the sessions; the operator sets a new one with their own password', async () => {
    const target = await operator(server, back, 'compliance');
    const reset = await as(admin).post(`/ops/v1/operators/${target.id}/totp-reset`);
    expect(reset.body.setup.purpose).toBe('totp');
    expect((await as(target).get('/ops/v1/me')).status).toBe(401);
    clock.advance(30_000);
    // The old secret no longer signs in.
    expect((await signIn(target.email, target.password, target.secret)).status).toBe(401);
    const token = reset.body.setup.token as string;
    const started = await back.call('POST', '/ops/v1/setup/start', { body: { token } });
    // The link alone is not enough: the administrator holding it does not know the password.
    const withoutPassword = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token, totp: await code(started.body.totp_secret) },
      address: freshAddress(),
    });
    expect(withoutPassword.body.code).toBe('SETUP_PASSWORD_REQUIRED');
    const wrongPassword = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token, current_password: 'not-their-password', totp: await code(started.body.totp_secret) },
      address: freshAddress(),
    });
    expect(wrongPassword.body.code).toBe('OPERATOR_SIGN_IN_FAILED');
    const finished = await back.call('POST', '/ops/v1/setup/finish', {
      body: { token, current_password: target.password, totp: await code(started.body.totp_secret) },
      address: freshAddress(),
    });
    expect(finished.status).toBe(200);
    clock.advance(30_000);
    expect((await signIn(target.email, target.password, started.body.totp_secret)).status).toBe(200);
  });

  it('an approver the proposer created or changed cannot approve their refund', async () => {
    // The proposer: an admin (admins approve and propose refunds).
    const proposer = second;
    const made = await invite(proposer, 'finance');
    const secret = await setUp(made.body.setup.token, 'made-by-proposer-pw');
    expect((await as(admin).post(`/ops/v1/operators/${made.id}/role/confirm`)).status).toBe(200);
    const helper = (await signIn(made.email, 'made-by-proposer-pw', secret)).body;
    const independent = await operator(server, back, 'finance');

    expect(await mayApprove(server.ctx.db, made.id, proposer.id)).toBe(false);
    expect(await mayApprove(server.ctx.db, proposer.id, proposer.id)).toBe(false);
    expect(await mayApprove(server.ctx.db, independent.id, proposer.id)).toBe(true);
    // Confirming a role changes the operator too: the confirming admin's refunds need someone else.
    expect(await mayApprove(server.ctx.db, made.id, admin.id)).toBe(false);
    // A change by someone else does not count against the proposer.
    expect(await mayApprove(server.ctx.db, independent.id, admin.id)).toBe(true);

    const payer = await person(server, { rub: 100_000n });
    const payee = await person(server);
    expect(
      (
        await server.call('POST', '/v2/wallet/transfer', {
          token: payer.token,
          body: { phone: payee.phone, amount: '300', currency_code: 'RUB', pin: PIN },
        })
      ).status,
    ).toBe(200);
    const { rows } = await server.ctx.db.query<{ id: string }>(
      `SELECT t.id FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
       WHERE a.user_id = $1 ORDER BY t.created_at DESC LIMIT 1`,
      [payer.userId],
    );
    const proposed = await as(proposer).post('/ops/v1/refunds', {
      transfer_id: rows[0]!.id,
      amount: '100',
      reason: 'Ошибочный перевод',
    });
    expect(proposed.status).toBe(200);
    const refused = await as(helper).post(`/ops/v1/refunds/${proposed.body.id}/approve`);
    expect([refused.status, refused.body.code]).toEqual([403, 'FOUR_EYES_RELATED']);
    const approved = await as(independent).post(`/ops/v1/refunds/${proposed.body.id}/approve`);
    expect(approved.body.status).toBe('approved');
  });

  it('throttles sign-in by address before reading any account, and answers alike for every e-mail', async () => {
    const victim = await operator(server, back, 'support');
    const attacker = '192.0.2.66';
    const known = await signIn(victim.email, 'wrong-password-here', victim.secret, attacker);
    const unknown = await signIn(
      `ghost-${randomUUID()}@ops.example`,
      'wrong-password-here',
      victim.secret,
      attacker,
    );
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
    expect(known.body).toEqual({
      status: 'error',
      code: 'OPERATOR_SIGN_IN_FAILED',
      message: 'Wrong e-mail, password or code',
    });
    for (let i = 2; i < SIGN_IN_FAILURES.max; i++)
      await signIn(victim.email, 'wrong-password-here', victim.secret, attacker);
    const audited = async () =>
      (
        await server.ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ops_audit WHERE action = 'sign_in_failed'`,
        )
      ).rows[0]!.n;
    const linesBefore = await audited();
    // Past the limit the address is refused before any account is read: no audit line, no hash.
    for (let i = 0; i < 5; i++) {
      const refused = await signIn(victim.email, victim.password, victim.secret, attacker);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(refused.status).toBe(429);
    }
    expect(await audited()).toBe(linesBefore);
    // The victim, from their own address, is neither locked out nor signed out.
    expect((await as(victim).get('/ops/v1/me')).status).toBe(200);
    clock.advance(30_000);
    expect((await signIn(victim.email, victim.password, victim.secret)).status).toBe(200);
    // The window passes: the address may try again.
    clock.advance(SIGN_IN_FAILURES.windowSeconds * 1000);
    expect((await signIn(victim.email, victim.password, victim.secret, attacker)).status).toBe(200);
  });

  it('pages every list with {results, next}', async () => {
    for (let i = 0; i < 3; i++) await invite(admin, 'support');
    const seen: string[] = [];
    let pages = 0;
    for (let next: string | null = ''; next !== null; pages++) {
      const page = await as(admin).get(`/ops/v1/operators?limit=2${next ? `&cursor=${next}` : ''}`);
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['next', 'results']);
      expect(page.body.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.results.map((o: { id: string }) => o.id));
      next = page.body.next;
    }
    const { rows } = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM operators');
    expect(seen.length).toBe(rows[0]!.n);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThan(2);
    for (const url of [
      '/ops/v1/users',
      '/ops/v1/refunds?status=all',
      '/ops/v1/payouts?status=all',
      '/ops/v1/identifications',
    ]) {
      const page = await as(admin).get(url);
      expect(page.status, url).toBe(200);
      expect(Array.isArray(page.body.results), url).toBe(true);
      expect(page.body).toHaveProperty('next');
    }
    // Everyone, newest first, when the search is empty; pages of one never repeat a person.
    await person(server);
    await person(server);
    const first = await as(admin).get('/ops/v1/users?limit=1');
    const following = await as(admin).get(`/ops/v1/users?limit=1&cursor=${first.body.next}`);
    expect(following.body.results[0].id).not.toBe(first.body.results[0].id);
    expect((await as(admin).get('/ops/v1/users?cursor=not-a-cursor')).body.code).toBe('FIELD_INVALID');
    expect((await as(admin).get('/ops/v1/users?limit=0')).status).toBe(400);
  });
});
