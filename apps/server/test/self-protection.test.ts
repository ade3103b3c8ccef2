/**
 * Self-protection and the answers before the PIN: a frozen wallet refuses every outgoing kind and
 * lets money in; unfreezing needs a fresh SMS code and the PIN; 'Это не я' reports and freezes; the
 * check calls name every rule the payment would meet, and move nothing.
 */
import { walletQrText } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastCode, ownCode, wrongCode } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { started, submitCard } from './topup-helpers.ts';
import {
  GOST_ACCOUNT as ACC,
  GOST_BIC as BIC,
  balance,
  GOST_CORR as CORR,
  GOOD_CARD,
  type Person,
  PIN,
  person,
  withdraw,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;
const GOST = `ST00012|Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}`;

describe(`self-protection and checks (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterEach(async () => {
    await expectLedgerSound(server);
  });
  afterAll(() => server.close());

  const post = (who: Person, path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.call('POST', path, { token: who.token, body, headers });
  const transfer = (from: Person, to: Person, amount = '10') =>
    post(from, '/v2/wallet/transfer', { phone: to.phone, amount, currency_code: 'RUB', pin: PIN });
  const qr = (from: Person, code: string, amount?: string) =>
    post(from, '/v2/wallet/payment/qr', {
      qr: code,
      currency_code: 'RUB',
      pin: PIN,
      ...(amount ? { amount } : {}),
    });

  it('a frozen wallet refuses every outgoing kind with WALLET_FROZEN and still receives money', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server, { rub: rub(1000) });
    const frozen = await post(ivan, '/v2/wallet/freeze', {});
    expect(frozen.status).toBe(200);
    expect((await server.call('GET', '/v2/wallet/auth/info', { token: ivan.token })).body.is_frozen).toBe(
      true,
    );

    for (const refused of [
      await transfer(ivan, petr),
      await withdraw(server, ivan, { amount: '10' }),
      await qr(ivan, walletQrText(petr.phone, '10.00')),
      await qr(ivan, GOST, '10'),
    ]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.code).toBe('WALLET_FROZEN');
    }
    expect(await balance(server, ivan)).toBe('1000.00');

    // Money still comes in: a transfer from someone else, and a top-up.
    expect((await transfer(petr, ivan, '25')).status).toBe(200);
    const order = await started(server, ivan.token, '5.00');
    expect(
      (await submitCard(server, order.url, { card: GOOD_CARD.replace(/ /g, ''), action: 'pay' })).statusCode,
    ).toBe(303);
    expect(await balance(server, ivan)).toBe('1030.00');
    // Freezing again changes nothing.
    expect((await post(ivan, '/v2/wallet/freeze', {})).status).toBe(200);
  });

  it('freezing ends every other session of the person, and notifies them', async () => {
    const ivan = await person(server);
    // A second session of the same person, signed in by SMS.
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: ivan.phone } });
    const second = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: ivan.phone, confirm_code: await lastCode(server, ivan.phone) },
      headers: { 'user-agent': 'Another device' },
    });
    const otherToken: string = second.body.auth_token;
    expect((await server.call('GET', '/v2/wallet', { token: otherToken })).status).toBe(200);
    clock.advance(1000);
    expect((await post(ivan, '/v2/wallet/freeze', {})).status).toBe(200);
    expect((await server.call('GET', '/v2/wallet', { token: otherToken })).status).toBe(401);
    expect((await server.call('GET', '/v2/wallet', { token: ivan.token })).status).toBe(200);
    const notes = await server.call('GET', '/v2/wallet/user/notification', { token: ivan.token });
    expect(notes.body.results[0].message).toMatch(/Кошелёк заблокирован/);
  });

  it('unfreezing needs a fresh SMS code and the PIN; wrong ones change nothing', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    expect((await post(ivan, '/v2/wallet/unfreeze', { confirm_code: '0000', pin: PIN })).body.code).toBe(
      'WALLET_NOT_FROZEN',
    );
    await post(ivan, '/v2/wallet/freeze', {});
    // A code whose SMS said 'sign-in' lifts no freeze (docs/decisions/security-rules.md#codes-bound-to-their-step).
    await server.call('POST', '/v2/wallet/auth/send_code', { body: { phone: ivan.phone } });
    const signInCode = await lastCode(server, ivan.phone);
    expect((await post(ivan, '/v2/wallet/unfreeze', { confirm_code: signInCode, pin: PIN })).body.code).toBe(
      'CODE_INVALID',
    );
    const code = await ownCode(server, ivan, 'unfreeze');
    // Nor does the unfreezing code sign anyone in.
    const login = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: ivan.phone, confirm_code: code },
    });
    expect(login.body.code).toBe('CODE_INVALID');
    const wrongPin = await post(ivan, '/v2/wallet/unfreeze', { confirm_code: code, pin: '9999' });
    expect(wrongPin.body.code).toBe('PIN_INVALID');
    const wrong = await post(ivan, '/v2/wallet/unfreeze', { confirm_code: wrongCode(code), pin: PIN });
    expect(wrong.body.code).toBe('CODE_INVALID');
    expect((await transfer(ivan, petr)).body.code).toBe('WALLET_FROZEN');
    const lifted = await post(ivan, '/v2/wallet/unfreeze', { confirm_code: code, pin: PIN });
    expect(lifted.status).toBe(200);
    expect((await transfer(ivan, petr)).status).toBe(200);
    // The code is used up.
    await post(ivan, '/v2/wallet/freeze', {});
    expect((await post(ivan, '/v2/wallet/unfreeze', { confirm_code: code, pin: PIN })).body.code).toBe(
      'CODE_INVALID',
    );
  });

  it('an operator’s freeze is not lifted by the person', async () => {
    const ivan = await person(server);
    await server.ctx.db.query(`UPDATE users SET frozen_at = now(), frozen_by = 'operator' WHERE id = $1`, [
      ivan.userId,
    ]);
    const code = await ownCode(server, ivan, 'unfreeze');
    expect((await post(ivan, '/v2/wallet/unfreeze', { confirm_code: code, pin: PIN })).body.code).toBe(
      'WALLET_FROZEN',
    );
  });

  it('‘Это не я’ reports one’s own outgoing operation once, and freezes the wallet', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    const sent = await transfer(ivan, petr, '7');
    const id = sent.body.receipt.id;
    // Someone else's operation, or an incoming one, is not there for them.
    expect((await post(petr, `/v2/wallet/transaction/${id}/report`, { reason: 'x' })).status).toBe(404);
    expect(
      (
        await post(ivan, '/v2/wallet/transaction/00000000-0000-4000-8000-000000000000/report', {
          reason: 'x',
        })
      ).status,
    ).toBe(404);
    const reported = await post(ivan, `/v2/wallet/transaction/${id}/report`, { reason: 'Я не переводил' });
    expect(reported.status).toBe(200);
    expect((await post(ivan, `/v2/wallet/transaction/${id}/report`, { reason: 'Снова' })).status).toBe(200);
    const { rows } = await server.ctx.db.query('SELECT reason FROM operation_reports WHERE user_id = $1', [
      ivan.userId,
    ]);
    expect(rows).toEqual([{ reason: 'Я не переводил' }]);
    expect((await transfer(ivan, petr)).body.code).toBe('WALLET_FROZEN');
  });

  it('the check calls name every rule a payment would meet, with the limits, and move nothing', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(100) });
    const petr = await person(server, { level: 'anonymous' });
    const codes = (answer: { body: { problems: { code: string }[] } }) =>
      answer.body.problems.map((p) => p.code);

    const toPerson = await post(anon, '/v2/wallet/transfer/check', {
      phone: petr.phone,
      amount: '15000.01',
      currency_code: 'RUB',
    });
    expect(toPerson.status).toBe(200);
    expect(toPerson.body.ok).toBe(false);
    expect(codes(toPerson)).toEqual(['TRANSFER_NOT_ALLOWED', 'RECIPIENT_UNAVAILABLE', 'INSUFFICIENT_FUNDS']);
    expect(toPerson.body.limits).toMatchObject({
      monthly_outgoing_max: '40000.00',
      monthly_outgoing_left: '40000.00',
    });
    expect(toPerson.body.problems[0].message).toMatch(/идентификац/);

    const unknown = await post(anon, '/v2/wallet/transfer/check', {
      phone: '+79990000000',
      amount: '1',
      currency_code: 'RUB',
    });
    expect(codes(unknown)).toEqual(['RECIPIENT_NOT_FOUND']);

    const withdrawal = await post(anon, '/v2/wallet/withdrawal/check', {
      amount: '50',
      currency_code: 'RUB',
      pan: '4111 1111 1111 1112',
    });
    expect(codes(withdrawal)).toEqual(['WITHDRAWAL_NOT_ALLOWED', 'CARD_INVALID']);

    // A QR payment to a merchant is allowed at every level: only the monthly limit and money count.
    const merchant = await post(anon, '/v2/wallet/payment/qr/check', {
      qr: GOST,
      amount: '50',
      currency_code: 'RUB',
    });
    expect(merchant.body).toMatchObject({ ok: true, problems: [] });
    const tooMuch = await post(anon, '/v2/wallet/payment/qr/check', {
      qr: GOST,
      amount: '40000.01',
      currency_code: 'RUB',
    });
    expect(codes(tooMuch)).toEqual(['LIMIT_MONTHLY', 'INSUFFICIENT_FUNDS']);
    expect(tooMuch.body.problems[0].message).toMatch(/осталось 40\u00a0000,00/);

    const simplified = await person(server, { rub: rub(100) });
    expect(
      (
        await post(simplified, '/v2/wallet/transfer/check', {
          phone: petr.phone,
          amount: '100',
          currency_code: 'RUB',
        })
      ).body,
    ).toMatchObject({ ok: true, problems: [] });
    await post(simplified, '/v2/wallet/freeze', {});
    const frozen = await post(simplified, '/v2/wallet/withdrawal/check', {
      amount: '1',
      currency_code: 'RUB',
    });
    expect(codes(frozen)).toEqual(['WALLET_FROZEN']);
    expect(await balance(server, anon)).toBe('100.00');
    expect(await balance(server, simplified)).toBe('100.00');
    // Bad input is an error in the contract's shape, as on the payment itself.
    const bad = await post(anon, '/v2/wallet/transfer/check', {
      phone: petr.phone,
      amount: 'abc',
      currency_code: 'RUB',
    });
    expect(bad.status).toBe(400);
  });
});
