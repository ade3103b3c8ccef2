/**
 * Issue 53's findings 1-4 and 10, each written as the attack was (docs/security.md, 'Antifraud and the
 * trusted person: which paths are judged'): a card or an account is a payee as a person is, on every
 * outgoing path, with the session; a session cannot prime its own signs; closing the wallet is an
 * outgoing payment; nothing moves once a wallet is closed; a refusal tells nothing of another person.
 */
import { errorMessage, walletQrText } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settlePayout } from '../src/modules/payouts/index.ts';
import { SANDBOX_SBP_PAYS } from '../src/providers/payouts/sandbox-sbp.ts';
import { ownCode } from './auth-helpers.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { operator, startOps } from './ops-helpers.ts';
import {
  balance,
  GOOD_CARD,
  GOST_BIC,
  gostAccount,
  OTHER_CARD,
  type Person,
  PIN,
  person,
  settledPerson,
  trustedPair,
  withdraw,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const HOUR = 3_600_000;
const gost = (account: string, sum: number) =>
  `ST00012|Name=ООО «Ромашка»|PersonalAcc=${gostAccount(account)}|BankName=ПАО Сбербанк|BIC=${GOST_BIC}|CorrespAcc=30101810400000000225|Sum=${sum * 100}`;

describe(`antifraud on every path that reaches the money (${databaseLabel})`, () => {
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
  const payQr = (from: Person, qr: string) =>
    server.call('POST', '/v2/wallet/payment/qr', {
      token: from.token,
      body: { qr, currency_code: 'RUB', pin: PIN },
    });
  const settled = (roubles: number) => settledPerson(server, roubles);
  const close = async (who: Person, pan?: string) =>
    server.call('POST', '/v2/wallet/close', {
      token: who.token,
      body: { pin: PIN, confirm_code: await ownCode(server, who, 'close_wallet'), ...(pan ? { pan } : {}) },
    });

  describe('1. every outgoing path is judged with its session; a card or an account is a payee', () => {
    it('holds a fresh session’s 18 000 ₽ withdrawal to a never-used card and GOST payment to a never-used account', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(40_000) });
      const card = await withdraw(server, ivan, { amount: '18000.00' });
      expect(card.status, JSON.stringify(card.body)).toBe(202);
      expect(card.body.reasons).toContain('new_session');
      const account = await payQr(ivan, gost('40702810000000077777', 18_000));
      expect(account.status, JSON.stringify(account.body)).toBe(202);
      expect(account.body.reasons).toContain('new_session');
      expect(await balance(server, ivan)).toBe('4000.00');
      const { rows } = await server.ctx.db.query<{ kind: string }>(
        `SELECT kind FROM money_holds WHERE user_id = $1 AND status = 'held' ORDER BY kind`,
        [ivan.userId],
      );
      expect(rows.map((row) => row.kind)).toEqual(['payment', 'withdrawal']);
    });

    it('holds a fresh session’s СБП transfer to a phone at another bank, however it was primed', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(40_000) });
      const sbp = (amount: string) =>
        server.call('POST', '/v2/wallet/sbp/transfer', {
          token: ivan.token,
          body: { phone: '+79165550101', bank_id: SANDBOX_SBP_PAYS, amount, pin: PIN },
        });
      expect((await sbp('1.00')).status).toBe(200);
      const large = await sbp('18000.00');
      expect(large.status, JSON.stringify(large.body)).toBe(202);
      expect(large.body.reasons).toContain('new_session');
    });

    it('knows a card paid before the session, and no other card by it', async () => {
      const anna = await person(server, { level: 'full', rub: rub(60_000) });
      expect((await withdraw(server, anna, { amount: '500.00' })).status).toBe(200);
      // That payout was two days ago, and so was the sign-in.
      for (const table of ['payouts', 'sessions'])
        await server.ctx.db.query(
          `UPDATE ${table} SET created_at = created_at - interval '2 days' WHERE user_id = $1`,
          [anna.userId],
        );
      // A new payee's sign with a settled session: a security change just now.
      await server.ctx.db.query('UPDATE users SET security_changed_at = $2 WHERE id = $1', [
        anna.userId,
        clock.now(),
      ]);
      const other = await withdraw(server, anna, { amount: '12000.00', pan: OTHER_CARD });
      expect(other.status, JSON.stringify(other.body)).toBe(202);
      expect(other.body.reasons).toContain('security_change');
      const again = await withdraw(server, anna, { amount: '12000.00' });
      expect(again.body.reasons ?? []).not.toContain('security_change');
    });
  });

  describe('2. signs cannot be primed by the session they judge', () => {
    it('a 1 ₽ payment to a mule does not make the mule known to the same fresh session', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(40_000) });
      const mule = await person(server, { level: 'full' });
      expect((await send(ivan, mule.phone, '1.00')).status).toBe(200);
      const large = await send(ivan, mule.phone, '18000.00');
      expect(large.status, JSON.stringify(large.body)).toBe(202);
      expect(large.body.reasons).toContain('new_session');
    });

    it('9 999 ₽ under the floor does not make 29 997 ₽ usual, nor the payee known', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(40_000) });
      const mule = await person(server, { level: 'full' });
      expect((await send(ivan, mule.phone, '9999.00')).status).toBe(200);
      const large = await send(ivan, mule.phone, '29997.00');
      expect(large.status, JSON.stringify(large.body)).toBe(202);
      expect(large.body.reasons).toEqual(expect.arrayContaining(['new_session', 'large_amount']));
    });

    it('sums what a fresh session sends to new payees under the floor, on every path', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(40_000) });
      expect((await send(ivan, (await person(server, { level: 'full' })).phone, '9999.00')).status).toBe(200);
      const second = await withdraw(server, ivan, { amount: '9999.00' });
      expect(second.status, JSON.stringify(second.body)).toBe(202);
      expect(second.body.reasons).toEqual(['new_session']);
      // A day on, the session is no longer fresh: under the floor nothing is summed.
      clock.advance(25 * HOUR);
      expect((await send(ivan, (await person(server, { level: 'full' })).phone, '9999.00')).status).toBe(200);
    });
  });

  describe('3. closing the wallet is an outgoing payment', () => {
    it('is refused while a trusted person is in force, saying what to do; nothing is paid', async () => {
      const anna = await settled(25_000);
      await trustedPair(server, anna, '1000');
      const preview = await server.call('GET', '/v2/wallet/close', { token: anna.token });
      expect(preview.body.problems.map((p: { code: string }) => p.code)).toEqual(['WALLET_CLOSE_TRUSTED']);
      const refused = await close(anna, GOOD_CARD);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe('WALLET_CLOSE_TRUSTED');
      expect(refused.body.message).toMatch(/выведите остаток на карту/);
      expect(await balance(server, anna)).toBe('25000.00');
      // What it says to do works: the withdrawal waits for the trusted person.
      expect((await withdraw(server, anna, { amount: '25000.00' })).status).toBe(202);
    });

    it('is judged by the signs on its card: a fresh session closing to a never-used card is refused', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(25_000) });
      const refused = await close(ivan, GOOD_CARD);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe('WALLET_CLOSE_CHECK');
      expect(refused.body.message).toMatch(/недавно подключённого устройства/);
      expect(await balance(server, ivan)).toBe('25000.00');
      const { rows } = await server.ctx.db.query<{ closed_at: Date | null }>(
        'SELECT closed_at FROM users WHERE id = $1',
        [ivan.userId],
      );
      expect(rows[0]!.closed_at).toBeNull();
    });

    it('closes from a settled session to a card paid before, within the usual amounts', async () => {
      const boris = await settled(30_000);
      const first = await withdraw(server, boris, { amount: '9000.00' });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(await settlePayout(server.ctx, first.body.receipt.id, { outcome: 'succeeded' })).toBe(true);
      clock.advance(25 * HOUR);
      const closed = await close(boris, GOOD_CARD);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body.payout).toMatchObject({ amount: '21000.00' });
    });
  });

  describe('4. nothing moves after the wallet closes', () => {
    it('refuses closing while a hold and an approval are open, saying so', async () => {
      const anna = await person(server, { level: 'full', rub: rub(25_000) });
      const held = await send(anna, (await person(server, { level: 'full' })).phone, '12000.00');
      expect(held.status).toBe(202);
      const refused = await close(anna, GOOD_CARD);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe('WALLET_CLOSE_PENDING');
      expect(refused.body.message).toMatch(/на проверке/);
      const preview = await server.call('GET', '/v2/wallet/close', {
        token: anna.token,
        headers: { 'accept-language': 'en' },
      });
      expect(preview.body.problems[0].message).toMatch(/on hold or awaiting/);
      expect(await balance(server, anna)).toBe('13000.00');
    });

    it('refuses the trusted person’s approval and an operator’s release of a closed wallet’s money', async () => {
      const anna = await settled(25_000);
      const olga = await trustedPair(server, anna, '1000');
      const petr = await person(server, { level: 'full' });
      const awaiting = await send(anna, petr.phone, '2000.00');
      expect(awaiting.status).toBe(202);
      // A fresh session's sum of sends to new payees, held by an operator's queue.
      const vera = await person(server, { level: 'full', rub: rub(20_000) });
      expect((await send(vera, (await person(server, { level: 'full' })).phone, '6000.00')).status).toBe(200);
      const held = await send(vera, petr.phone, '5000.00');
      expect(held.status).toBe(202);
      // The wallets closed by a path that raced the holds (closing itself refuses while they are open).
      await server.ctx.db.query(
        `UPDATE users SET closed_at = $2, closed_phone = phone, phone = 'closed:' || id::text WHERE id = ANY($1::uuid[])`,
        [[anna.userId, vera.userId], clock.now()],
      );
      const approved = await server.call('POST', `/v2/wallet/approvals/${awaiting.body.hold_id}/approve`, {
        token: olga.token,
        body: { pin: PIN },
      });
      expect(approved.status, JSON.stringify(approved.body)).toBe(409);
      expect(approved.body.code).toBe('WALLET_CLOSED');
      const backOffice = await startOps(server);
      const compliance = await operator(server, backOffice, 'compliance');
      const released = await backOffice.call('POST', `/ops/v1/holds/${held.body.hold_id}/release`, {
        token: compliance.token,
        body: { reason: 'Позвонили клиенту' },
      });
      expect(released.status).toBeGreaterThanOrEqual(400);
      expect(released.status).toBeLessThan(500);
      expect(['0.00', undefined]).toContain(await balance(server, petr));
      const { rows } = await server.ctx.db.query<{ status: string }>(
        'SELECT status FROM money_holds WHERE id = ANY($1::uuid[]) ORDER BY amount',
        [[awaiting.body.hold_id, held.body.hold_id]],
      );
      expect(rows.map((row) => row.status)).toEqual(['awaiting_approval', 'held']);
    });

    it('a request whose pay waits in a hold is not paid again meanwhile', async () => {
      const anna = await settled(25_000);
      await trustedPair(server, anna, '1000');
      const oleg = await person(server, { level: 'full' });
      const asked = await server.call('POST', '/v2/wallet/request', {
        token: oleg.token,
        body: { amount: '5000.00', currency_code: 'RUB', phone: anna.phone },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      const payRequest = () =>
        server.call('POST', `/v2/wallet/request/${asked.body.id}/pay`, {
          token: anna.token,
          body: { pin: PIN },
        });
      expect((await payRequest()).status).toBe(202);
      const check = await server.call('POST', `/v2/wallet/request/${asked.body.id}/pay/check`, {
        token: anna.token,
      });
      expect(check.body.problems.map((p: { code: string }) => p.code)).toEqual(['HOLD_WAITING']);
      const again = await payRequest();
      expect(again.status, JSON.stringify(again.body)).toBe(409);
      expect(again.body.code).toBe('HOLD_WAITING');
      expect(await balance(server, anna)).toBe('20000.00');
    });

    it('refuses a request’s payment to a closed wallet as the recipient unable to accept', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(1000) });
      const oleg = await person(server, { level: 'full' });
      const asked = await server.call('POST', '/v2/wallet/request', {
        token: oleg.token,
        body: { amount: '100.00', currency_code: 'RUB', phone: ivan.phone },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      await server.ctx.db.query('UPDATE users SET closed_at = $2 WHERE id = $1', [oleg.userId, clock.now()]);
      const paid = await server.call('POST', `/v2/wallet/request/${asked.body.id}/pay`, {
        token: ivan.token,
        body: { pin: PIN },
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(409);
      expect(paid.body.code).toBe('RECIPIENT_UNAVAILABLE');
      expect(await balance(server, ivan)).toBe('1000.00');
    });
  });

  describe('10. a refusal tells nothing about another person', () => {
    it('says only that the recipient cannot accept the transfer now, on every call that reaches their cap', async () => {
      const ivan = await person(server, { level: 'full', rub: rub(5000) });
      const anon = await person(server, { level: 'anonymous' });
      await fund(server.ctx, anon.userId, rub(14_999));
      const said = {
        ru: 'Получатель сейчас не может принять перевод',
        en: 'The recipient cannot accept the transfer now',
      };
      const check = await server.call('POST', '/v2/wallet/transfer/check', {
        token: ivan.token,
        body: { phone: anon.phone, amount: '1000.00', currency_code: 'RUB' },
        headers: { 'accept-language': 'en' },
      });
      expect(check.body.problems).toEqual([{ code: 'RECIPIENT_UNAVAILABLE', message: said.en }]);
      const transfer = await send(ivan, anon.phone, '1000.00');
      expect([transfer.status, transfer.body.code, transfer.body.message]).toEqual([
        409,
        'RECIPIENT_UNAVAILABLE',
        said.ru,
      ]);
      const qr = await payQr(ivan, walletQrText(anon.phone, '1000.00'));
      expect([qr.body.code, qr.body.message]).toEqual(['RECIPIENT_UNAVAILABLE', said.ru]);
      const qrCheck = await server.call('POST', '/v2/wallet/payment/qr/check', {
        token: ivan.token,
        body: { qr: walletQrText(anon.phone, '1000.00'), currency_code: 'RUB' },
      });
      expect(qrCheck.body.problems).toEqual([{ code: 'RECIPIENT_UNAVAILABLE', message: said.ru }]);
      // A split: each share paid to the requester near their cap.
      const split = await server.call('POST', '/v2/wallet/request', {
        token: anon.token,
        body: {
          amount: '2000.00',
          currency_code: 'RUB',
          phones: [ivan.phone, (await person(server, { level: 'full' })).phone],
        },
      });
      expect(split.status, JSON.stringify(split.body)).toBe(200);
      const share = split.body.shares.find((s: { phone: string | null }) => s.phone === ivan.phone);
      const paid = await server.call('POST', `/v2/wallet/request/${share.id}/pay`, {
        token: ivan.token,
        body: { pin: PIN },
        headers: { 'accept-language': 'en' },
      });
      expect([paid.body.code, paid.body.message]).toEqual(['RECIPIENT_UNAVAILABLE', said.en]);
      // The words carry no figure, whatever the recipient's level.
      expect(errorMessage('RECIPIENT_UNAVAILABLE', 'ru')).not.toMatch(/\d/);
      expect(await balance(server, ivan)).toBe('5000.00');
    });
  });
});
