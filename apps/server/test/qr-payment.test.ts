/**
 * QR payments through the API: our own receive QR (money to a wallet user, recorded as a payment),
 * GOST R 56042-2014 (money to a bank account through the payouts provider), SBP and anything else
 * refused with nothing moved; PIN, limits, idempotency.
 */
import { walletQrText } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, uniquePhone } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  GOST_ACCOUNT as ACC,
  GOST_BIC as BIC,
  balance,
  GOST_CORR as CORR,
  key,
  notificationKinds,
  type Person,
  PIN,
  person,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

const PAYEE = `Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}`;
const gost = (extra = '') => `ST00012|${PAYEE}${extra}`;

describe(`QR payments (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  function pay(
    who: Person,
    qr: string,
    body: Partial<{ amount: string; currency_code: string; pin: string }> = {},
    idempotencyKey?: string,
  ) {
    return server.call('POST', '/v2/wallet/payment/qr', {
      token: who.token,
      body: { qr, currency_code: 'RUB', pin: PIN, ...body },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  }

  it('pays a wallet user by their receive QR, recorded as a payment on both sides', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const paid = await pay(ivan, walletQrText(petr.phone, '120.50'));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'success',
      message: 'Оплата выполнена',
      receipt: { kind: 'payment', status: 'complete', amount: '120.50', counterparty: 'Иван П.' },
    });
    expect(await balance(server, ivan)).toBe('879.50');
    expect(await balance(server, petr)).toBe('120.50');
    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    expect(history.body.results.find((t: { id: string }) => t.id === paid.body.receipt.id)).toMatchObject({
      amount: '-120.50',
      kind: 'payment',
      wallet_transaction_type: 'payment',
      description: 'Оплата по QR-коду: Иван П.',
    });
    const stat = await server.call('GET', '/v2/wallet/stat', { token: ivan.token });
    const payments = stat.body.results.find(
      (e: { wallet_transaction_type: string }) => e.wallet_transaction_type === 'payment',
    );
    expect(payments).toMatchObject({ amount: '120.50', count: 1 });
    const received = await server.call('GET', '/v2/wallet/transaction', { token: petr.token });
    expect(received.body.results[0]).toMatchObject({ amount: '120.50', kind: 'payment' });
    expect(await notificationKinds(server, ivan)).toContain('money_out_payment');
    expect((await notificationKinds(server, petr)).filter((k) => k.startsWith('money_'))).toHaveLength(1);
  });

  it('takes the amount from the request when the receive QR has none, and refuses a disagreement', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    const noAmount = await pay(ivan, walletQrText(petr.phone));
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.code).toBe('FIELD_REQUIRED');
    const disagree = await pay(ivan, walletQrText(petr.phone, '10.00'), { amount: '11.00' });
    expect(disagree.body.code).toBe('FIELD_INVALID');
    const agree = await pay(ivan, walletQrText(petr.phone, '10.00'), { amount: '10' });
    expect(agree.status).toBe(200);
    const fromRequest = await pay(ivan, walletQrText(petr.phone), { amount: '5.25' });
    expect(fromRequest.status).toBe(200);
    expect(fromRequest.body.receipt.amount).toBe('5.25');
    const usd = await pay(ivan, walletQrText(petr.phone, '1.00'), { currency_code: 'USD' });
    expect(usd.body.code).toBe('FIELD_INVALID');
    expect((await pay(ivan, walletQrText(ivan.phone, '1.00'))).body.code).toBe('RECIPIENT_SELF');
    expect((await pay(ivan, walletQrText(uniquePhone(), '1.00'))).body.code).toBe('RECIPIENT_NOT_FOUND');
    expect(await balance(server, ivan)).toBe('84.75');
  });

  it('a payment to a person needs a level that allows transfers', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(100) });
    const petr = await person(server);
    const refused = await pay(anon, walletQrText(petr.phone, '1.00'));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TRANSFER_NOT_ALLOWED');
  });

  it('pays a GOST code to a bank account through the payouts provider', async () => {
    // Payments to merchants are allowed at every level.
    const anon = await person(server, { level: 'anonymous', rub: rub(1000) });
    const paid = await pay(anon, gost('|Sum=12345|Purpose=Оплата заказа 42'));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.receipt).toMatchObject({
      kind: 'payment',
      status: 'pending',
      amount: '123.45',
      counterparty: 'ООО «Три кита»',
      card: null,
    });
    expect(await balance(server, anon)).toBe('876.55');
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    const receipt = await server.call('GET', `/v2/wallet/withdrawal/${paid.body.receipt.id}`, {
      token: anon.token,
    });
    expect(receipt.body).toMatchObject({ kind: 'payment', status: 'complete', amount: '123.45' });
    expect(await balance(server, anon)).toBe('876.55');
    const history = await server.call('GET', '/v2/wallet/transaction', { token: anon.token });
    expect(history.body.results.find((t: { kind: string }) => t.kind === 'payment')).toMatchObject({
      amount: '-123.45',
      kind: 'payment',
      wallet_transaction_type: 'payment',
      status: 'complete',
    });
    const { rows } = await server.ctx.db.query<{
      destination: string;
      payee_details: Record<string, string>;
    }>('SELECT destination, payee_details FROM payouts WHERE id = $1', [paid.body.receipt.id]);
    expect(rows[0]).toMatchObject({
      destination: ACC,
      payee_details: { bic: BIC, purpose: 'Оплата заказа 42' },
    });
  });

  it('a GOST code without a sum is paid with the request’s amount; a disagreement is refused', async () => {
    const ivan = await person(server, { rub: rub(100) });
    expect((await pay(ivan, gost())).body.code).toBe('FIELD_REQUIRED');
    expect((await pay(ivan, gost('|Sum=1000'), { amount: '11' })).body.code).toBe('FIELD_INVALID');
    const paid = await pay(ivan, gost(), { amount: '40' });
    expect(paid.status).toBe(200);
    expect(paid.body.receipt.amount).toBe('40.00');
    expect((await pay(ivan, gost('|Sum=1000'), { currency_code: 'USD' })).body.code).toBe(
      'CURRENCY_NOT_ALLOWED',
    );
    expect((await pay(ivan, gost('|Sum=999999999999999999'))).body.code).toBe('AMOUNT_TOO_LARGE');
    const tooMuch = await pay(ivan, gost('|Sum=6001'));
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    await runPayoutWorkerOnce(server.ctx);
    expect(await balance(server, ivan)).toBe('60.00');
  });

  it('refuses broken, SBP and unknown codes without moving money or counting the PIN', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const badKey = ACC.slice(0, 8) + ((Number(ACC[8]) + 1) % 10) + ACC.slice(9);
    const broken = await pay(ivan, `ST00012|${PAYEE.replace(ACC, badKey)}|Sum=100`, { pin: '0000' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('QR_INVALID');
    expect(broken.body.message).toBe('QR-код содержит ошибку: не сходится контрольный ключ счёта');
    const missing = await pay(ivan, `ST00012|Name=ООО|PersonalAcc=${ACC}|BankName=Банк|BIC=${BIC}`, {
      pin: '0000',
    });
    expect(missing.body.message).toBe('QR-код содержит ошибку: не хватает поля CorrespAcc');
    const sbp = await pay(
      ivan,
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=10000&cur=RUB&crc=C08B',
      { pin: '0000' },
    );
    expect(sbp.status).toBe(400);
    expect(sbp.body.code).toBe('QR_SBP_UNAVAILABLE');
    const text = await pay(ivan, 'hello, world', { pin: '0000' });
    expect(text.body.code).toBe('QR_UNSUPPORTED');
    expect(text.body.message).toBe(
      'Оплата по QR-коду временно недоступна, приносим извинения за доставленные неудобства.',
    );
    const en = await server.call('POST', '/v2/wallet/payment/qr', {
      token: ivan.token,
      body: { qr: 'hello', currency_code: 'RUB', pin: PIN },
      headers: { 'accept-language': 'en' },
    });
    expect(en.body.message).toBe(
      'QR code payment is temporarily unavailable, we apologize for any inconvenience caused.',
    );
    expect(await balance(server, ivan)).toBe('100.00');
    const { rows } = await server.ctx.db.query<{ pin_failures: number }>(
      'SELECT pin_failures FROM users WHERE id = $1',
      [ivan.userId],
    );
    expect(rows[0]!.pin_failures).toBe(0);
  });

  it('checks the PIN for both kinds', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    expect((await pay(ivan, gost('|Sum=100'), { pin: '0000' })).body.code).toBe('PIN_INVALID');
    expect((await pay(ivan, walletQrText(petr.phone, '1.00'), { pin: '0000' })).body.code).toBe(
      'PIN_INVALID',
    );
    expect(await balance(server, ivan)).toBe('100.00');
  });

  it('the monthly limit applies to merchant payments', async () => {
    const anon = await person(server, { level: 'anonymous', rub: rub(50_000) });
    expect((await pay(anon, gost(), { amount: '40000' })).status).toBe(200);
    const over = await pay(anon, gost(), { amount: '0.01' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('LIMIT_MONTHLY');
    await runPayoutWorkerOnce(server.ctx);
  });

  it('a repeated Idempotency-Key pays once, for both kinds', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const petr = await person(server);
    const k1 = key();
    const first = await pay(ivan, walletQrText(petr.phone, '100.00'), {}, k1);
    const again = await pay(ivan, walletQrText(petr.phone, '100.00'), {}, k1);
    expect(again.body).toEqual(first.body);
    const k2 = key();
    const gostFirst = await pay(ivan, gost('|Sum=20000'), {}, k2);
    const [gostAgain, gostThird] = await Promise.all([
      pay(ivan, gost('|Sum=20000'), {}, k2),
      pay(ivan, gost('|Sum=20000'), {}, k2),
    ]);
    expect(gostAgain.body).toEqual(gostFirst.body);
    expect(gostThird.body).toEqual(gostFirst.body);
    expect(await balance(server, ivan)).toBe('700.00');
    expect(await balance(server, petr)).toBe('100.00');
    const { rows } = await server.ctx.db.query('SELECT id FROM sandbox_payouts WHERE reference = $1', [
      gostFirst.body.receipt.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(await runPayoutWorkerOnce(server.ctx)).toBe(1);
    expect(await balance(server, ivan)).toBe('700.00');
  });
});
