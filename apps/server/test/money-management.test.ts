/**
 * Managing money through the API (docs/decisions/managing-money.md#managing-money-categories-budgets-goals):
 * categories by rule and remembered per payee, statistics by category summing to the ledger, budgets' notices
 * once per threshold and month, savings goals (deposit and withdraw idempotent, never negative, zero-sum, in
 * the balance cap but not the monthly limit), round-ups in the payment's own statement, a deleted goal's
 * money returned, and a goal's regular deposit run by the schedules' job (once, without a PIN, skipped
 * without money, ended with its goal).
 */
import { randomUUID } from 'node:crypto';
import { walletQrText } from '@e-wallet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDoor } from '../src/ledger/index.ts';
import { runPayoutWorkerOnce } from '../src/modules/payouts/worker.ts';
import { remindSchedule, runSchedule } from '../src/modules/schedules/service.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, usePostgres } from './helpers.ts';
import { expectLedgerSound } from './invariants.ts';
import {
  GOST_ACCOUNT as ACC,
  GOST_BIC as BIC,
  balance,
  GOST_CORR as CORR,
  GOOD_CARD,
  key,
  type Person,
  PIN,
  person,
} from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`managing money (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    // A low monthly limit and cap for the simplified level, to see what a goal counts toward.
    server = await startTestServer({
      clock,
      env: { IDENTIFICATION_LIMITS: '{"simplified":{"monthly_outgoing_max":3000,"balance_max":15000}}' },
    });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  const call = (
    who: Person,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    idempotencyKey?: string,
  ) =>
    server.call(method, url, {
      token: who.token,
      body,
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  const send = (from: Person, to: Person, amount: string) =>
    call(
      from,
      'POST',
      '/v2/wallet/transfer',
      { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
      key(),
    );
  const payQr = (from: Person, qr: string, amount?: string) =>
    call(from, 'POST', '/v2/wallet/payment/qr', { qr, currency_code: 'RUB', pin: PIN, amount }, key());
  const gost = (purpose: string, extra = '') =>
    `ST00012|Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}|Purpose=${purpose}${extra}`;
  async function categoryOf(who: Person, transferId: string): Promise<string | null> {
    const { body } = await call(who, 'GET', '/v2/wallet/transaction?limit=100');
    const found = body.results.find((row: { id: string }) => row.id === transferId);
    return found?.category?.id ?? null;
  }
  async function budgetNotices(who: Person): Promise<string[]> {
    const { rows } = await server.ctx.db.query<{ message_key: string }>(
      `SELECT message_key FROM notifications WHERE user_id = $1 AND kind = 'budget' ORDER BY created_at, message_key = 'budget_100'`,
      [who.userId],
    );
    return rows.map((row) => row.message_key);
  }

  it('categorises by rule, and remembers a person’s choice for the payee’s next operations', async () => {
    const ivan = await person(server, { rub: rub(5000) });
    const anna = await person(server);
    const oleg = await person(server);

    const toAnna = await send(ivan, anna, '100.00');
    expect(toAnna.status).toBe(200);
    expect(await categoryOf(ivan, toAnna.body.receipt.id)).toBe('people');
    const merchant = await payQr(ivan, walletQrText(oleg.phone, '50.00'));
    expect(merchant.status).toBe(200);
    expect(await categoryOf(ivan, merchant.body.receipt.id)).toBe('other');
    const utilities = await payQr(ivan, gost('Оплата ЖКУ за март'), '200');
    expect(utilities.status).toBe(200);
    const byMcc = await payQr(ivan, gost('Заказ 42', '|MCC=5812'), '150');
    expect(byMcc.status).toBe(200);
    const cash = await call(
      ivan,
      'POST',
      '/v2/wallet/withdrawal',
      { amount: '300.00', pan: GOOD_CARD, currency_code: 'RUB', pin: PIN },
      key(),
    );
    expect(cash.status).toBe(200);
    const history = (await call(ivan, 'GET', '/v2/wallet/transaction?limit=100')).body.results;
    const categories = history.map((row: { category?: { id: string } | null }) => row.category?.id ?? null);
    // The newest first; the funding that came in has none.
    expect(categories).toEqual(['cash', 'cafes', 'utilities', 'other', 'people', null]);
    // What came in has no category: Anna's history reads the transfer without one.
    expect((await call(anna, 'GET', '/v2/wallet/transaction')).body.results[0].category).toBeNull();

    // Ivan calls the transfer to Anna a café bill: the next transfer to Anna is one too, Oleg's stay.
    const chosen = await call(ivan, 'PATCH', `/v2/wallet/transaction/${toAnna.body.receipt.id}`, {
      category: 'cafes',
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.category).toEqual({ id: 'cafes', name: 'Кафе и рестораны', custom: false });
    clock.advance(1000);
    const again = await send(ivan, anna, '40.00');
    expect(await categoryOf(ivan, again.body.receipt.id)).toBe('cafes');
    expect(await categoryOf(ivan, (await send(ivan, oleg, '10.00')).body.receipt.id)).toBe('people');

    // A person's own name, listed after the fixed ones; History filters by it.
    const own = await call(ivan, 'POST', '/v2/wallet/categories', { name: 'Подарки' });
    expect(own.status).toBe(201);
    expect((await call(ivan, 'POST', '/v2/wallet/categories', { name: 'подарки' })).body.id).toBe(
      own.body.id,
    );
    await call(ivan, 'PATCH', `/v2/wallet/transaction/${again.body.receipt.id}`, { category: own.body.id });
    const listed = await call(ivan, 'GET', '/v2/wallet/categories');
    expect(listed.body.results.map((c: { name: string }) => c.name)).toEqual([
      'Продукты',
      'Кафе и рестораны',
      'Транспорт',
      'Связь и интернет',
      'Коммунальные услуги',
      'Здоровье',
      'Переводы людям',
      'Снятие на карту',
      'Другое',
      'Подарки',
    ]);
    const english = await server.call('GET', '/v2/wallet/categories', {
      token: ivan.token,
      headers: { 'accept-language': 'en' },
    });
    expect(english.body.results[0].name).toBe('Groceries');
    const gifts = await call(ivan, 'GET', `/v2/wallet/transaction?category=${own.body.id}`);
    expect(gifts.body.results.map((row: { id: string }) => row.id)).toEqual([again.body.receipt.id]);

    // Another person's operation, an unknown category, and money that came in are refused.
    expect(
      (await call(oleg, 'PATCH', `/v2/wallet/transaction/${toAnna.body.receipt.id}`, { category: 'cafes' }))
        .status,
    ).toBe(404);
    expect(
      (await call(anna, 'PATCH', `/v2/wallet/transaction/${toAnna.body.receipt.id}`, { category: 'cafes' }))
        .status,
    ).toBe(404);
    const unknown = await call(ivan, 'PATCH', `/v2/wallet/transaction/${toAnna.body.receipt.id}`, {
      category: 'yachts',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('FIELD_INVALID');
  });

  it('gives statistics by category that sum to what the ledger says was spent', async () => {
    const ivan = await person(server, { rub: rub(5000) });
    const anna = await person(server);
    await send(ivan, anna, '100.00');
    await send(ivan, anna, '23.45');
    await payQr(ivan, gost('Оплата интернета'), '300');
    await payQr(ivan, walletQrText(anna.phone, '7.00'));
    // The GOST payment's payout completes: statistics count completed money.
    await runPayoutWorkerOnce(server.ctx);
    await call(ivan, 'POST', '/v2/wallet/goals', {
      name: 'Отпуск',
      target_amount: '1000',
      currency_code: 'RUB',
    });
    const goal = (await call(ivan, 'GET', '/v2/wallet/goals')).body.results[0];
    await call(ivan, 'POST', `/v2/wallet/goals/${goal.id}/deposit`, { amount: '50.00', pin: PIN }, key());

    const byCategory = await call(ivan, 'GET', '/v2/wallet/stat?group_by=category&date_from=2026-03-01');
    expect(byCategory.status).toBe(200);
    expect(byCategory.body.group_by).toBe('category');
    expect(byCategory.body.results).toEqual([
      { category: 'telecom', name: 'Связь и интернет', amount: '300.00', percent: 70, count: 1 },
      { category: 'people', name: 'Переводы людям', amount: '123.45', percent: 29, count: 2 },
      { category: 'other', name: 'Другое', amount: '7.00', percent: 1, count: 1 },
    ]);
    const byType = await call(ivan, 'GET', '/v2/wallet/stat?date_from=2026-03-01');
    expect(byCategory.body.total).toBe('430.45');
    // The goal's deposit is one's own money: neither a category nor money spent.
    expect(byType.body.total_out).toBe('430.45');
    const { rows } = await server.ctx.db.query<{ spent: string }>(
      `SELECT (-sum(amount))::text AS spent FROM ledger_entries
       WHERE user_id = $1 AND amount < 0 AND phase IN ('single', 'post') AND kind NOT IN ('exchange', 'savings')`,
      [ivan.userId],
    );
    expect(rows[0]!.spent).toBe('43045');
  });

  it('tells a budget’s 80 % and 100 % once each month, in the bell', async () => {
    // Late in the month (a session lasts a week without use), so the month turns within the test.
    clock.set(new Date('2026-04-29T12:00:00Z'));
    const ivan = await person(server, { rub: rub(10_000) });
    const anna = await person(server);
    const put = await call(ivan, 'PUT', '/v2/wallet/budgets', {
      category: 'people',
      amount: '1000',
      currency_code: 'RUB',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      category: 'people',
      name: 'Переводы людям',
      amount: '1000.00',
      spent: '0.00',
      percent: 0,
    });
    const all = await call(ivan, 'PUT', '/v2/wallet/budgets', { amount: '5000', currency_code: 'RUB' });
    expect(all.body).toMatchObject({ category: null, name: 'Все траты' });

    const spend = (amount: string) => {
      clock.advance(1000);
      return send(ivan, anna, amount);
    };
    await spend('700.00');
    expect(await budgetNotices(ivan)).toEqual([]);
    await spend('100.00');
    expect(await budgetNotices(ivan)).toEqual(['budget_80']);
    await spend('100.00');
    expect(await budgetNotices(ivan)).toEqual(['budget_80']);
    await spend('150.00');
    expect(await budgetNotices(ivan)).toEqual(['budget_80', 'budget_100']);
    const progress = (await call(ivan, 'GET', '/v2/wallet/budgets')).body.results;
    expect(progress.map((b: { spent: string; percent: number }) => [b.spent, b.percent])).toEqual([
      ['1050.00', 21],
      ['1050.00', 105],
    ]);
    const bell = await call(ivan, 'GET', '/v2/wallet/user/notification');
    const told = bell.body.results.filter((n: { kind: string }) => n.kind === 'budget');
    expect(told.map((n: { message: string }) => n.message)).toEqual([
      'Бюджет «Переводы людям» на месяц исчерпан',
      'Потрачено 80% бюджета «Переводы людям» на месяц',
    ]);
    // Tapping one opens the budgets' page.
    expect(told.map((n: { about: unknown }) => n.about)).toEqual([{ type: 'budgets' }, { type: 'budgets' }]);

    // A new Moscow month starts again: 80 % is told again, once.
    clock.set(new Date('2026-04-30T21:30:00Z'));
    await spend('850.00');
    expect(await budgetNotices(ivan)).toEqual(['budget_80', 'budget_100', 'budget_80']);

    // Concurrent payments tell a threshold once.
    const petr = await person(server, { rub: rub(10_000) });
    await call(petr, 'PUT', '/v2/wallet/budgets', { amount: '100', currency_code: 'RUB' });
    await Promise.all(Array.from({ length: 6 }, () => send(petr, anna, '20.00')));
    expect(await budgetNotices(petr)).toEqual(['budget_80', 'budget_100']);

    expect((await call(ivan, 'DELETE', '/v2/wallet/budgets?category=people')).status).toBe(200);
    expect((await call(ivan, 'DELETE', '/v2/wallet/budgets?category=people')).status).toBe(404);
    expect((await call(ivan, 'GET', '/v2/wallet/budgets')).body.results).toHaveLength(1);
    const bad = await call(ivan, 'PUT', '/v2/wallet/budgets', {
      category: 'yachts',
      amount: '1',
      currency_code: 'RUB',
    });
    expect(bad.body.code).toBe('FIELD_INVALID');
  });

  it('moves money into and out of a goal: idempotent, never negative, zero-sum', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const created = await call(ivan, 'POST', '/v2/wallet/goals', {
      name: 'Велосипед',
      target_amount: '300',
      currency_code: 'RUB',
      target_date: '2026-12-31',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      saved: '0.00',
      target_amount: '300.00',
      percent: 0,
      expected_date: null,
    });
    const goal = created.body.id;
    const k = key();
    const first = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/deposit`,
      { amount: '100.00', pin: PIN },
      k,
    );
    expect(first.status).toBe(200);
    const repeat = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/deposit`,
      { amount: '100.00', pin: PIN },
      k,
    );
    expect(repeat.body).toEqual(first.body);
    expect(
      (await call(ivan, 'POST', `/v2/wallet/goals/${goal}/deposit`, { amount: '1.00', pin: PIN }, k)).body
        .code,
    ).toBe('IDEMPOTENCY_CONFLICT');
    expect(await balance(server, ivan)).toBe('900.00');
    expect(
      (await call(ivan, 'POST', `/v2/wallet/goals/${goal}/deposit`, { amount: '1.00', pin: '0000' }, key()))
        .body.code,
    ).toBe('PIN_INVALID');

    // Never more than there is, either way.
    const tooMuch = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/withdraw`,
      { amount: '100.01', pin: PIN },
      key(),
    );
    expect(tooMuch.body.code).toBe('INSUFFICIENT_FUNDS');
    const overDeposit = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/deposit`,
      { amount: '900.01', pin: PIN },
      key(),
    );
    expect(overDeposit.body.code).toBe('INSUFFICIENT_FUNDS');
    const back = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/withdraw`,
      { amount: '40.00', pin: PIN },
      key(),
    );
    expect(back.status).toBe(200);
    expect(await balance(server, ivan)).toBe('940.00');
    const detail = await call(ivan, 'GET', `/v2/wallet/goals/${goal}`);
    expect(detail.body).toMatchObject({ saved: '60.00', percent: 20 });
    expect(detail.body.history.map((m: { kind: string; amount: string }) => [m.kind, m.amount])).toEqual([
      ['withdrawal', '40.00'],
      ['deposit', '100.00'],
    ]);
    // Money that came in on one day says nothing of a pace: no date promised yet.
    expect(detail.body.expected_date).toBe(null);

    // Zero-sum: the person's account and the goal together hold what was funded.
    const { rows } = await server.ctx.db.query<{ total: string }>(
      `SELECT sum(a.balance)::text AS total FROM ledger_accounts a
       WHERE a.user_id = $1 OR a.id = (SELECT account_id FROM savings_goals WHERE id = $2)`,
      [ivan.userId, goal],
    );
    expect(rows[0]!.total).toBe('100000');
    // The history reads the moves on the person's account, without a category.
    const history = (await call(ivan, 'GET', '/v2/wallet/transaction')).body.results;
    expect(history[0]).toMatchObject({
      amount: '40.00',
      description: 'Из копилки «Велосипед»',
      category: null,
    });
    expect(history[1]).toMatchObject({ amount: '-100.00', description: 'В копилку «Велосипед»' });
    // A day later 30.00 more: 90.00 over two days is 45.00 a day, so the 210.00 left takes five days.
    clock.advance(24 * 3_600_000);
    const second = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/deposit`,
      { amount: '30.00', pin: PIN },
      key(),
    );
    expect(second.status).toBe(200);
    const paced = await call(ivan, 'GET', `/v2/wallet/goals/${goal}`);
    const fiveDays = new Date(clock.now().getTime() + 3 * 3_600_000 + 5 * 24 * 3_600_000);
    expect(paced.body.expected_date).toBe(fiveDays.toISOString().slice(0, 10));
    expect((await call(ivan, 'GET', '/v2/wallet/goals/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
  });

  it('counts a goal toward the balance cap but not toward the monthly limit', async () => {
    const ivan = await person(server, { rub: rub(15_000) });
    const anna = await person(server, { rub: rub(100) });
    const goal = (
      await call(ivan, 'POST', '/v2/wallet/goals', {
        name: 'Машина',
        target_amount: '50000',
        currency_code: 'RUB',
      })
    ).body.id;
    // 5000 into the goal is more than the monthly limit of 3000: it is not outgoing money.
    const deposit = await call(
      ivan,
      'POST',
      `/v2/wallet/goals/${goal}/deposit`,
      { amount: '5000', pin: PIN },
      key(),
    );
    expect(deposit.status).toBe(200);
    expect((await send(ivan, anna, '2900.00')).status).toBe(200);
    // Ivan holds 7,100 in his account and 5,000 in the goal; the cap is 15,000: 3,000 more is too much.
    await fund(server.ctx, anna.userId, rub(5000));
    const over = await send(anna, ivan, '3000.00');
    expect(over.body.code).toBe('RECIPIENT_UNAVAILABLE');
    expect((await send(anna, ivan, '2800.00')).status).toBe(200);
  });

  it('rounds a payment up into the goal in the payment’s own statement; a refused payment rounds nothing', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const oleg = await person(server);
    const goal = (
      await call(ivan, 'POST', '/v2/wallet/goals', {
        name: 'Отпуск',
        target_amount: '500',
        currency_code: 'RUB',
      })
    ).body.id;
    const rounding = await call(ivan, 'PATCH', `/v2/wallet/goals/${goal}`, { round_up: 10 });
    expect(rounding.body.round_up).toBe(10);
    expect((await call(ivan, 'PATCH', `/v2/wallet/goals/${goal}`, { round_up: 7 })).status).toBe(400);

    const paid = await payQr(ivan, walletQrText(oleg.phone, '123.45'));
    expect(paid.status).toBe(200);
    expect(await balance(server, ivan)).toBe('870.00');
    expect(await balance(server, oleg)).toBe('123.45');
    const detail = (await call(ivan, 'GET', `/v2/wallet/goals/${goal}`)).body;
    expect(detail.saved).toBe('6.55');
    expect(detail.history[0]).toMatchObject({ kind: 'round_up', amount: '6.55' });
    // The same statement: one transaction id (xmin) wrote both movements.
    const { rows } = await server.ctx.db.query<{ same: boolean }>(
      `SELECT p.xmin::text = r.xmin::text AND p.created_at = r.created_at AS same
       FROM ledger_transfers p, ledger_transfers r WHERE p.id = $1 AND r.id = ledger_key_id('round-up:' || $1)`,
      [paid.body.receipt.id],
    );
    expect(rows[0]!.same).toBe(true);

    // A whole amount rounds nothing; a payment refused for money rounds nothing either.
    await payQr(ivan, walletQrText(oleg.phone, '70.00'));
    expect((await call(ivan, 'GET', `/v2/wallet/goals/${goal}`)).body.saved).toBe('6.55');
    const refused = await payQr(ivan, walletQrText(oleg.phone, '999.99'));
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await call(ivan, 'GET', `/v2/wallet/goals/${goal}`)).body.saved).toBe('6.55');
    expect(await balance(server, ivan)).toBe('800.00');
    // When the account cannot give the round-up, the payment still goes and rounds nothing.
    await fund(server.ctx, ivan.userId, rub(5));
    const last = await payQr(ivan, walletQrText(oleg.phone, '801.00'));
    expect(last.status).toBe(200);
    expect(await balance(server, ivan)).toBe('4.00');
    expect((await call(ivan, 'GET', `/v2/wallet/goals/${goal}`)).body.saved).toBe('6.55');
  });

  it('returns a deleted goal’s money to the account first', async () => {
    const ivan = await person(server, { rub: rub(1000) });
    const goal = (
      await call(ivan, 'POST', '/v2/wallet/goals', {
        name: 'Ремонт',
        target_amount: '500',
        currency_code: 'RUB',
      })
    ).body.id;
    await call(ivan, 'POST', `/v2/wallet/goals/${goal}/deposit`, { amount: '250.00', pin: PIN }, key());
    expect(await balance(server, ivan)).toBe('750.00');
    // The wallet closes only once its goals are empty.
    const preview = await call(ivan, 'GET', '/v2/wallet/close');
    expect(preview.body.problems.map((p: { code: string }) => p.code)).toContain('WALLET_CLOSE_GOALS');
    const deleted = await call(ivan, 'DELETE', `/v2/wallet/goals/${goal}`);
    expect(deleted.status).toBe(200);
    expect(await balance(server, ivan)).toBe('1000.00');
    expect((await call(ivan, 'GET', '/v2/wallet/goals')).body.results).toEqual([]);
    expect((await call(ivan, 'GET', '/v2/wallet/close')).body.problems).toEqual([]);
    expect((await call(ivan, 'DELETE', `/v2/wallet/goals/${goal}`)).status).toBe(404);
    expect(
      (await call(ivan, 'POST', `/v2/wallet/goals/${goal}/deposit`, { amount: '1', pin: PIN }, key())).status,
    ).toBe(404);
    if (usePostgres) {
      // Concurrent deposits into one goal never take more than the account holds.
      const petr = await person(server, { rub: rub(100) });
      const id = (
        await call(petr, 'POST', '/v2/wallet/goals', {
          name: 'A',
          target_amount: '500',
          currency_code: 'RUB',
        })
      ).body.id;
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          call(petr, 'POST', `/v2/wallet/goals/${id}/deposit`, { amount: '30', pin: PIN }, key()),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(await balance(server, petr)).toBe('10.00');
    }
  });
  // Last in this file: it moves the clock on by weeks.
  it('deposits into a goal every week through the schedules’ job: once, without a PIN, skipped without money, ended with its goal', async () => {
    const ivan = await person(server, { rub: rub(5000) });
    const anna = await person(server, { rub: rub(100) });
    const newGoal = async (who: Person, name: string) =>
      (await call(who, 'POST', '/v2/wallet/goals', { name, target_amount: '20000', currency_code: 'RUB' }))
        .body.id as string;
    const goal = await newGoal(ivan, 'Отпуск');
    const annas = await newGoal(anna, 'Шуба');
    const plan = (body: Record<string, unknown>, language = 'ru') =>
      server.call('POST', '/v2/wallet/schedule', {
        token: ivan.token,
        headers: { 'accept-language': language },
        body: {
          goal_id: goal,
          amount: '3500.00',
          currency_code: 'RUB',
          period: 'week',
          first_run_at: new Date(clock.now().getTime() + 60_000).toISOString(),
          pin: PIN,
          ...body,
        },
      });
    // A phone or a goal, exactly one; the person's own open goal, in its currency; the PIN confirms it.
    const both = await plan({ phone: anna.phone });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      code: 'SCHEDULE_TARGET',
      message: 'Укажите телефон получателя или копилку — что-то одно',
    });
    const neither = await plan({ goal_id: undefined }, 'en');
    expect(neither.body).toMatchObject({
      code: 'SCHEDULE_TARGET',
      message: 'Please give either the recipient’s phone or a savings goal, not both',
    });
    expect((await plan({ goal_id: annas })).body.code).toBe('NOT_FOUND');
    expect((await plan({ currency_code: 'USD' })).body.code).toBe('SCHEDULE_GOAL_CURRENCY');
    expect((await plan({ pin: '0000' })).body.code).toBe('PIN_INVALID');
    const made = await plan({});
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.schedule.id as string;
    expect(made.body.schedule).toMatchObject({
      goal_id: goal,
      phone: null,
      recipient: 'Отпуск',
      amount: '3500.00',
      status: 'active',
    });

    // The first run: 3,500 is over the monthly limit of 3,000, which a goal's deposit does not count.
    clock.advance(61_000);
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('paid');
    expect((await runSchedule(server.ctx, id, 0)).outcome).toBe('stale');
    const moves = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ledger_transfers WHERE reference_type = 'goal' AND reference_id = $1`,
      [goal],
    );
    expect(moves.rows[0]!.n).toBe(1);
    expect(await balance(server, ivan)).toBe('1500.00');
    const detail = (await call(ivan, 'GET', `/v2/wallet/goals/${goal}`)).body;
    expect(detail).toMatchObject({ saved: '3500.00' });
    expect(detail.history).toMatchObject([{ kind: 'deposit', amount: '3500.00' }]);
    const history = (await call(ivan, 'GET', '/v2/wallet/transaction')).body.results;
    expect(history[0]).toMatchObject({ amount: '-3500.00', description: 'В копилку «Отпуск»' });

    // Without a PIN the door takes only this standing order's own deposit into its own goal.
    const withoutPin = (change: { amount?: bigint; goalId?: string; direction?: 'deposit' | 'withdraw' }) =>
      openDoor(
        server.ctx.db,
        {
          door: 'goal',
          id: randomUUID(),
          person: ivan.userId,
          goalId: change.goalId ?? goal,
          direction: change.direction ?? 'deposit',
          amount: change.amount ?? rub(3500),
          reference: { type: 'scheduled_transfer', id },
          description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
          at: clock.now(),
        },
        { pinProof: null, call: { name: 'goalDeposit', key: null, requestHash: '-', answer: null } },
      );
    for (const change of [{ amount: rub(1) }, { direction: 'withdraw' as const }, { goalId: annas }])
      expect(await withoutPin(change)).toEqual({ outcome: 'refused', refusal: { rule: 'pin' } });

    // The reminder a day before, in the goal's words.
    expect(await remindSchedule(server.ctx, id, 1)).toBe(true);
    // A week on, the person opening the app midway (a session idle for 7 days ends).
    const aWeekLater = async () => {
      clock.advance(4 * 86_400_000);
      await balance(server, ivan);
      clock.advance(3 * 86_400_000);
    };
    // The second week: 1,500 does not cover 3,500; the period is skipped and the person told.
    await aWeekLater();
    expect((await runSchedule(server.ctx, id, 1)).outcome).toBe('skipped');
    expect(await balance(server, ivan)).toBe('1500.00');
    const told = async () =>
      (await call(ivan, 'GET', '/v2/wallet/user/notification')).body.results.map((n: { message: string }) =>
        n.message.replace(/\s/g, ' '),
      );
    const notices = await told();
    expect(notices.slice(0, 2)).toEqual([
      'Регулярное пополнение копилки «Отпуск» на 3 500,00 ₽ не выполнено: Недостаточно средств на счёте',
      'Завтра регулярное пополнение копилки «Отпуск» на 3 500,00 ₽',
    ]);
    const listed = (await call(ivan, 'GET', '/v2/wallet/schedule')).body.results;
    expect(listed).toMatchObject([
      { id, goal_id: goal, phone: null, status: 'active', last_run: { outcome: 'skipped' } },
    ]);

    // The goal deleted: its schedule reads as ended at once; its next run ends the row, and tells nothing.
    expect((await call(ivan, 'DELETE', `/v2/wallet/goals/${goal}`)).status).toBe(200);
    expect((await call(ivan, 'GET', '/v2/wallet/schedule')).body.results[0]).toMatchObject({
      status: 'ended',
      next_run_at: null,
    });
    await aWeekLater();
    expect(await runSchedule(server.ctx, id, 2)).toEqual({ outcome: 'ended', next: null });
    expect((await runSchedule(server.ctx, id, 3)).outcome).toBe('stale');
    expect((await call(ivan, 'GET', '/v2/wallet/schedule')).body.results[0]).toMatchObject({
      status: 'ended',
      next_run_at: null,
    });
    expect((await told()).filter((text: string) => text.includes('копилки'))).toHaveLength(2);
    expect(await balance(server, ivan)).toBe('5000.00');
  });
});
