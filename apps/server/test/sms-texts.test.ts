/**
 * Every SMS code says what it confirms, in the person's language, in one SMS segment where the words
 * allow: registration, sign-in, lifting a freeze, closing the wallet, and a held operation with its
 * amount and masked payee. A held operation's reasons come one by one, naming the trusted person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeText } from '../src/modules/auth/code-texts.ts';
import { SANDBOX_SBP_PAYS } from '../src/providers/payouts/sandbox-sbp.ts';
import { smsSegments } from '../src/providers/sms/segments.ts';
import { PERSON } from './auth-helpers.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, uniquePhone } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import { type Person, PIN, person, settledPerson } from './withdrawal-helpers.ts';

const NB = '\u00a0';
const EN = { 'accept-language': 'en-US,en;q=0.9' };

describe(`what each SMS code confirms (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { ANTIFRAUD_SIGNS: 'on' } });
  });
  afterAll(() => server.close());

  /** The newest text with a code for a phone, checked to be one segment. */
  async function lastText(phone: string): Promise<{ text: string; code: string }> {
    const { body } = await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    const sms = body.results.find((one: { code: string }) => one.code !== '');
    expect(smsSegments(sms.text), sms.text).toBe(1);
    return { text: sms.text, code: sms.code };
  }
  async function sendCode(phone: string, body: Record<string, string> = {}, headers = {}) {
    // Five codes a phone an hour: each one a quarter of an hour later.
    clock.advance(15 * 60_000);
    const sent = await server.call('POST', '/v2/wallet/auth/send_code', {
      body: { phone, ...body },
      headers,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return lastText(phone);
  }
  const settled = (roubles: number): Promise<Person> => settledPerson(server, roubles);
  const transfer = (from: Person, to: string, amount: string, headers = {}) =>
    server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to, amount, currency_code: 'RUB', pin: PIN },
      headers,
    });

  it('a registration code and a sign-in code say so, in Russian and in English', async () => {
    const phone = uniquePhone();
    await server.call('POST', '/v2/wallet/auth/register', { body: { ...PERSON, phone } });
    const registration = await lastText(phone);
    expect(registration.text).toBe(`Код ${registration.code}: регистрация в E-Wallet. Никому не сообщайте.`);
    const english = uniquePhone();
    await server.call('POST', '/v2/wallet/auth/register', {
      body: { ...PERSON, phone: english },
      headers: EN,
    });
    const englishRegistration = await lastText(english);
    expect(englishRegistration.text).toBe(
      `Code ${englishRegistration.code}: E-Wallet sign-up. Never share it.`,
    );

    const ivan = await person(server);
    const signIn = await sendCode(ivan.phone);
    expect(signIn.text).toBe(`Код ${signIn.code}: вход в E-Wallet. Никому не сообщайте.`);
    const signInEn = await sendCode(ivan.phone, {}, EN);
    expect(signInEn.text).toBe(`Code ${signInEn.code}: sign-in to E-Wallet. Never share it.`);
  });

  it('a code for lifting a freeze or closing the wallet names the step, and still works for it', async () => {
    const ivan = await person(server);
    const unfreeze = await sendCode(ivan.phone, { purpose: 'unfreeze' });
    expect(unfreeze.text).toBe(`Код ${unfreeze.code}: разблокировка кошелька E-Wallet. Никому не сообщайте.`);
    const unfreezeEn = await sendCode(ivan.phone, { purpose: 'unfreeze' }, EN);
    expect(unfreezeEn.text).toBe(`Code ${unfreezeEn.code}: unfreezing your E-Wallet. Never share it.`);
    const close = await sendCode(ivan.phone, { purpose: 'close_wallet' });
    expect(close.text).toBe(`Код ${close.code}: закрытие кошелька E-Wallet. Никому не сообщайте.`);
    const closeEn = await sendCode(ivan.phone, { purpose: 'close_wallet' }, EN);
    expect(closeEn.text).toBe(`Code ${closeEn.code}: closing your E-Wallet. Never share it.`);

    // The code named for lifting a freeze lifts it.
    const frozen = await server.call('POST', '/v2/wallet/freeze', { token: ivan.token, body: {} });
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200);
    const code = (await sendCode(ivan.phone, { purpose: 'unfreeze' })).code;
    const lifted = await server.call('POST', '/v2/wallet/unfreeze', {
      token: ivan.token,
      body: { confirm_code: code, pin: PIN },
    });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    // An unknown step is the contract's field error, never a code.
    const unknown = await server.call('POST', '/v2/wallet/auth/send_code', {
      body: { phone: ivan.phone, purpose: 'anything' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('FIELD_INVALID');
  });

  it('a held transfer’s code names the amount and the masked payee, and confirms it', async () => {
    const anna = await settled(50_000);
    const petr = await person(server, { level: 'full' });
    const held = await transfer(anna, petr.phone, '12000.00');
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    const id = held.body.hold_id;
    expect(held.body.reason_list).toEqual(['Сумма намного больше ваших обычных операций']);

    clock.advance(61_000);
    const sent = await server.call('POST', `/v2/wallet/holds/${id}/code`, { token: anna.token });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.resend_after).toBe(60);
    const ru = await lastText(anna.phone);
    expect(ru.text).toBe(`Код ${ru.code}: перевод 12${NB}000${NB}₽ Иван П. Никому не сообщайте.`);
    clock.advance(61_000);
    await server.call('POST', `/v2/wallet/holds/${id}/code`, { token: anna.token, headers: EN });
    const en = await lastText(anna.phone);
    expect(en.text).toBe(`Code ${en.code}: transfer of ₽12,000 to Ivan P. Never share it.`);
    // Within the cooldown the same refusal as every code's.
    const soon = await server.call('POST', `/v2/wallet/holds/${id}/code`, { token: anna.token });
    expect(soon.body.code).toBe('CODE_RESEND_TOO_SOON');

    // Somebody else's hold is not found; the named code confirms the operation.
    const stranger = await person(server);
    expect((await server.call('POST', `/v2/wallet/holds/${id}/code`, { token: stranger.token })).status).toBe(
      404,
    );
    const confirmed = await server.call('POST', `/v2/wallet/holds/${id}/confirm`, {
      token: anna.token,
      body: { confirm_code: en.code, pin: PIN },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.hold.reason_list).toEqual(['Сумма намного больше ваших обычных операций']);
    // A closed hold sends no code.
    clock.advance(61_000);
    const closed = await server.call('POST', `/v2/wallet/holds/${id}/code`, { token: anna.token });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('HOLD_CLOSED');
    await expectLedgerSound(server);
  });

  it('a held СБП transfer’s code says it is an СБП transfer, with the amount and the masked payee', async () => {
    const anna = await settled(50_000);
    const held = await server.call('POST', '/v2/wallet/sbp/transfer', {
      token: anna.token,
      body: { phone: '+79161234567', bank_id: SANDBOX_SBP_PAYS, amount: '12000.00', pin: PIN },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(202);
    clock.advance(61_000);
    await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/code`, { token: anna.token });
    const ru = await lastText(anna.phone);
    expect(ru.text).toMatch(
      new RegExp(
        `^Код ${ru.code}: перевод по СБП 12${NB}000${NB}₽ \\p{Lu}\\p{Ll}+ \\p{Lu}\\. Никому не сообщайте\\.$`,
        'u',
      ),
    );
    clock.advance(61_000);
    await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/code`, {
      token: anna.token,
      headers: EN,
    });
    const en = await lastText(anna.phone);
    expect(en.text).toMatch(
      new RegExp(`^Code ${en.code}: SBP transfer of ₽12,000 to [A-Z][a-z]+ [A-Z]\\. Never share it\\.$`),
    );
    await server.call('POST', `/v2/wallet/holds/${held.body.hold_id}/cancel`, { token: anna.token });
  });

  it('a trusted person’s reason names them and their threshold, in both languages', async () => {
    const anna = await settled(50_000);
    const olga = await person(server, { level: 'full' });
    await server.ctx.db.query(
      `UPDATE users SET first_name = 'Ольга', last_name = 'Кузнецова' WHERE id = $1`,
      [olga.userId],
    );
    const named = await server.call('PUT', '/v2/wallet/trusted-person', {
      token: anna.token,
      body: { phone: olga.phone, threshold: '1000', new_payees: false },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    await server.call('POST', '/v2/wallet/trusted-person/accept', {
      token: olga.token,
      body: { id: anna.userId },
    });
    const petr = await person(server, { level: 'full' });
    const waiting = await transfer(anna, petr.phone, '5000.00');
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    expect(waiting.body.reason_list[0]).toBe(
      `Сумма от 1${NB}000${NB}₽ — такие операции подтверждает Ольга К.`,
    );
    const waitingEn = await transfer(anna, petr.phone, '5000.00', { ...EN, 'idempotency-key': 'sms-en-1' });
    expect(waitingEn.body.reason_list[0]).toBe('₽1,000 or more — Olga K. approves such operations');
    const holds = await server.call('GET', '/v2/wallet/holds', { token: anna.token });
    expect(holds.body.results[0].reason_list[0]).toBe(
      `Сумма от 1${NB}000${NB}₽ — такие операции подтверждает Ольга К.`,
    );
    // Waiting for the trusted person, the person has no code to ask.
    const code = await server.call('POST', `/v2/wallet/holds/${waiting.body.hold_id}/code`, {
      token: anna.token,
    });
    expect(code.body.code).toBe('HOLD_CLOSED');

    // The trusted person is asked in her own language (her last sign-in's), whatever the payer's.
    const newest = async (phone: string): Promise<string> =>
      (await server.call('GET', `/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.results[0].text;
    expect(await newest(olga.phone)).toMatch(/^E-Wallet: Иван П. просит одобрить операцию 5/);
    const olgaCode = (await sendCode(olga.phone, {}, EN)).code;
    const signedIn = await server.call('POST', '/v2/wallet/auth/login', {
      body: { phone: olga.phone, confirm_code: olgaCode },
      headers: EN,
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const third = await transfer(anna, petr.phone, '5000.00', { 'idempotency-key': 'sms-ru-3' });
    expect(third.status).toBe(202);
    expect(await newest(olga.phone)).toMatch(/asks you to approve an operation of ₽5,000\.00/);
    await expectLedgerSound(server);
  });
});

describe('a code’s text', () => {
  it('keeps the facts in one segment when a long name leaves no room for the warning', () => {
    const money = {
      kind: 'withdrawal' as const,
      amount: 123_456_700n,
      currency: 'RUB' as const,
      payee: 'Константин Константинопольский',
    };
    const text = codeText('1234', { money }, 'ru');
    expect(text).toBe(`Код 1234: вывод 1${NB}234${NB}567${NB}₽ на Константин Константинопольский.`);
    expect(smsSegments(text)).toBe(1);
    // A payment to a shop in English reads the same way.
    expect(codeText('1234', { money: { ...money, kind: 'payment', payee: 'Shop' } }, 'en')).toBe(
      'Code 1234: payment of ₽1,234,567 to Shop. Never share it.',
    );
  });

  it('counts GSM-7 and UCS-2 segments as a gateway does', () => {
    expect(smsSegments('a'.repeat(160))).toBe(1);
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('{'.repeat(80))).toBe(1);
    expect(smsSegments('{'.repeat(81))).toBe(2);
    expect(smsSegments('ж'.repeat(70))).toBe(1);
    expect(smsSegments('ж'.repeat(71))).toBe(2);
  });
});
