/**
 * The level's limits on money calls (db/functions/limits.sql, through the ledger's `pay` and
 * `topUpRefusal`), at and just over each limit, on real ledger balances and outgoing sums (money comes
 * in through the ledger's test funding helper). A checked payment is rolled back: it only asks.
 */

import { randomUUID } from 'node:crypto';
import { type ErrorParams, errorMessage, paramText } from '@e-wallet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import { AppError } from '../src/errors.ts';
import { systemAccount, topUpRefusal, transfer, userAccount } from '../src/ledger/index.ts';
import { refusalError } from '../src/modules/money-calls/index.ts';
import { type LevelName, levelRules, levelRulesJson, rubParam } from '../src/policy/levels.ts';
import { pay } from './door.ts';
import { fund, insertUser } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer, usePostgres } from './helpers.ts';

const rub = (roubles: number, kopecks = 0) => BigInt(roubles) * 100n + BigInt(kopecks);

/** An error's parameters as a Russian reader sees them. */
const shown = (params: ErrorParams | undefined) =>
  Object.fromEntries(Object.entries(params ?? {}).map(([name, value]) => [name, paramText(value, 'ru')]));

describe('amounts in limit errors', () => {
  it('are written as the app writes money, in the language of the message', () => {
    const at = (minor: bigint) => ({ limit: rubParam(minor) });
    const ru = (minor: bigint) => errorMessage('LIMIT_BALANCE', 'ru', at(minor)).split(': ')[1];
    expect(ru(rub(15_000))).toBe('15\u00a0000,00\u00a0₽');
    expect(ru(rub(1_234_567, 5))).toBe('1\u00a0234\u00a0567,05\u00a0₽');
    expect(ru(1n)).toBe('0,01\u00a0₽');
    expect(ru(0n)).toBe('0,00\u00a0₽');
    expect(
      errorMessage('LIMIT_MONTHLY', 'en', { limit: rubParam(rub(40_000)), left: rubParam(rub(999, 99)) }),
    ).toBe('This exceeds the monthly spending limit of your identification level: ₽40,000.00, ₽999.99 left');
  });
});

describe(`identification limits (${databaseLabel})`, () => {
  let server: TestServer;
  let ctx: AppContext;
  // Mid-month in Moscow, so "this month" is unambiguous.
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    server = await startTestServer({ clock });
    ctx = server.ctx;
  });
  afterAll(() => server.close());

  // Every user here signs with the same stored PIN hash, so a payment's proof is this.
  const PIN_PROOF = Buffer.alloc(32, 7);
  async function userAt(level: LevelName): Promise<string> {
    const id = await insertUser(ctx.db, { at: clock.now() });
    await ctx.db.query('UPDATE users SET identification_level = $2, pin_hash = $3 WHERE id = $1', [
      id,
      level,
      PIN_PROOF,
    ]);
    return id;
  }
  const ROLLED_BACK = new Error('asked only');

  /** Money out of the user's RUB account, as the ledger records a payment. */
  async function spend(
    userId: string,
    amount: bigint,
    kind: 'payment' | 'withdrawal' | 'transfer' = 'payment',
  ) {
    await ctx.db.tx(async (q) => {
      const account = (await userAccount(q, userId, 'RUB'))!;
      const sink = await systemAccount(q, 'RUB', 'external_payments');
      await transfer(q, {
        debit: account.id,
        credit: sink.id,
        amount,
        currency: 'RUB',
        kind,
        idempotencyKey: `test-spend:${randomUUID()}`,
        at: clock.now(),
      });
    });
  }

  async function failure(work: Promise<unknown>): Promise<AppError | null> {
    try {
      await work;
      return null;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }

  const topUp = (
    userId: string,
    amount: bigint,
    rules = ctx.config.levelRulesJson,
    currency: 'RUB' | 'USD' = 'RUB',
  ) =>
    failure(
      ctx.db.tx(async (q) => {
        const refusal = await topUpRefusal(q, rules, userId, currency, amount, clock.now());
        if (refusal) throw refusalError(refusal);
      }),
    );
  /** A payment of `amount` by `userId`, to `payee` (a person) or out of the wallet (null), rolled back. */
  const paymentCheck = (
    userId: string,
    kind: 'withdrawal' | 'transfer' | 'payment',
    amount: bigint,
    payee: string | null,
    currency: 'RUB' | 'USD' = 'RUB',
  ) =>
    failure(
      ctx.db
        .tx(async (q) => {
          const paid = await pay(q, {
            id: randomUUID(),
            payer: userId,
            payee,
            currency,
            amount,
            kind,
            description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
            at: clock.now(),
            rules: ctx.config.levelRulesJson,
            pinProof: PIN_PROOF,
            call: { name: 'transfer', key: null, requestHash: '', answer: null },
          });
          if (paid.outcome === 'refused') throw refusalError(paid.refusal);
          throw ROLLED_BACK;
        })
        .catch((error) => {
          if (error !== ROLLED_BACK) throw error;
        }),
    );
  let richPerson: string | undefined;
  /** A full-level person with money, to pay others from. */
  async function rich(): Promise<string> {
    if (!richPerson) {
      richPerson = await userAt('full');
      await fund(ctx, richPerson, rub(600_000));
    }
    return richPerson;
  }
  let payeePerson: string | undefined;
  async function payee(): Promise<string> {
    payeePerson ??= await userAt('full');
    return payeePerson;
  }
  const spendCheck = async (userId: string, kind: 'withdrawal' | 'transfer' | 'payment', amount: bigint) =>
    paymentCheck(userId, kind, amount, kind === 'transfer' ? await payee() : null);
  const receive = async (userId: string, amount: bigint) =>
    paymentCheck(await rich(), 'transfer', amount, userId);

  it('caps an anonymous balance at 15 000 ₽: at the cap passes, one kopeck over fails naming it', async () => {
    const id = await userAt('anonymous');
    expect(await topUp(id, rub(15_000))).toBeNull();
    const over = await topUp(id, rub(15_000, 1));
    expect(over?.code).toBe('LIMIT_BALANCE');
    expect(shown(over?.params)).toEqual({ limit: '15\u00a0000,00\u00a0₽' });
    expect(errorMessage('LIMIT_BALANCE', 'ru', over!.params)).toBe(
      'Превышен лимит остатка на счёте для вашего уровня идентификации: 15\u00a0000,00\u00a0₽',
    );
    // With money already there, the room is what is left.
    await fund(ctx, id, rub(10_000));
    expect(await topUp(id, rub(5_000))).toBeNull();
    expect((await topUp(id, rub(5_000, 1)))?.code).toBe('LIMIT_BALANCE');
  });

  it('caps simplified at 60 000 ₽ and full at 600 000 ₽', async () => {
    const simplified = await userAt('simplified');
    await fund(ctx, simplified, rub(59_000));
    expect(await topUp(simplified, rub(1_000))).toBeNull();
    const over = await topUp(simplified, rub(1_000, 1));
    expect(over?.code).toBe('LIMIT_BALANCE');
    expect(shown(over?.params).limit).toBe('60\u00a0000,00\u00a0₽');

    const full = await userAt('full');
    await fund(ctx, full, rub(599_999, 99));
    expect(await topUp(full, 1n)).toBeNull();
    const fullOver = await topUp(full, 2n);
    expect(fullOver?.code).toBe('LIMIT_BALANCE');
    expect(shown(fullOver?.params).limit).toBe('600\u00a0000,00\u00a0₽');
  });

  it('refuses a top-up where the level does not allow it (configured)', async () => {
    const id = await userAt('anonymous');
    const noTopUp = levelRulesJson(levelRules('{"anonymous":{"topup":false}}'));
    expect((await topUp(id, 100n, noTopUp))?.code).toBe('TOPUP_NOT_ALLOWED');
    // The configured caps are used too.
    const lower = levelRulesJson(levelRules('{"anonymous":{"balance_max":100}}'));
    expect(await topUp(id, rub(100), lower)).toBeNull();
    expect(shown((await topUp(id, rub(100, 1), lower))?.params)).toEqual({ limit: '100,00\u00a0₽' });
  });

  it('gives anonymous payments only: withdrawals and transfers are refused', async () => {
    const id = await userAt('anonymous');
    await fund(ctx, id, rub(1_000));
    expect((await spendCheck(id, 'withdrawal', rub(10)))?.code).toBe('WITHDRAWAL_NOT_ALLOWED');
    expect((await spendCheck(id, 'transfer', rub(10)))?.code).toBe('TRANSFER_NOT_ALLOWED');
    expect(await spendCheck(id, 'payment', rub(10))).toBeNull();
    for (const level of ['simplified', 'full'] as const) {
      const other = await userAt(level);
      await fund(ctx, other, rub(10));
      expect(await spendCheck(other, 'withdrawal', rub(10))).toBeNull();
      expect(await spendCheck(other, 'transfer', rub(10))).toBeNull();
      expect(await spendCheck(other, 'payment', rub(10))).toBeNull();
    }
  });

  it('limits anonymous outgoing to 40 000 ₽ a calendar month, counting what left this month', async () => {
    const id = await userAt('anonymous');
    await fund(ctx, id, rub(40_000));
    await spend(id, rub(39_000));
    expect(await spendCheck(id, 'payment', rub(1_000))).toBeNull();
    const over = await spendCheck(id, 'payment', rub(1_000, 1));
    expect(over?.code).toBe('LIMIT_MONTHLY');
    expect(shown(over?.params)).toEqual({ limit: '40\u00a0000,00\u00a0₽', left: '1\u00a0000,00\u00a0₽' });
    expect(errorMessage('LIMIT_MONTHLY', 'ru', over!.params)).toBe(
      'Превышен месячный лимит расходов для вашего уровня идентификации: 40\u00a0000,00\u00a0₽, осталось 1\u00a0000,00\u00a0₽',
    );
    await spend(id, rub(1_000));
    const none = await spendCheck(id, 'payment', 1n);
    expect(shown(none?.params)).toEqual({ limit: '40\u00a0000,00\u00a0₽', left: '0,00\u00a0₽' });

    // A new month (Moscow time) starts from zero.
    const saved = clock.now();
    clock.set(new Date('2026-03-31T20:59:59Z')); // 23:59:59 in Moscow, still March
    expect((await spendCheck(id, 'payment', 1n))?.code).toBe('LIMIT_MONTHLY');
    clock.set(new Date('2026-03-31T21:00:00Z')); // 1 April 00:00 in Moscow
    await fund(ctx, id, rub(40_001));
    expect(await spendCheck(id, 'payment', rub(40_000))).toBeNull();
    expect((await spendCheck(id, 'payment', rub(40_000, 1)))?.code).toBe('LIMIT_MONTHLY');
    clock.set(saved);
  });

  it('limits simplified outgoing to 200 000 ₽ a month for every kind, and full not at all', async () => {
    const id = await userAt('simplified');
    await fund(ctx, id, rub(200_000));
    await spend(id, rub(100_000), 'withdrawal');
    await spend(id, rub(50_000), 'transfer');
    await spend(id, rub(49_999, 99), 'payment');
    for (const kind of ['withdrawal', 'transfer', 'payment'] as const) {
      expect(await spendCheck(id, kind, 1n)).toBeNull();
      const over = await spendCheck(id, kind, 2n);
      expect(over?.code).toBe('LIMIT_MONTHLY');
      expect(shown(over?.params)).toEqual({ limit: '200\u00a0000,00\u00a0₽', left: '0,01\u00a0₽' });
    }

    const full = await userAt('full');
    await fund(ctx, full, rub(600_000));
    await spend(full, rub(600_000), 'withdrawal');
    await fund(ctx, full, rub(1_000_000));
    expect(await spendCheck(full, 'withdrawal', rub(1_000_000))).toBeNull();
  });

  it("caps what a recipient may receive at their level's balance limit, without naming it", async () => {
    const id = await userAt('anonymous');
    await fund(ctx, id, rub(14_999, 99));
    expect(await receive(id, 1n)).toBeNull();
    const over = await receive(id, 2n);
    expect(over?.code).toBe('RECIPIENT_UNAVAILABLE');
    expect(errorMessage('RECIPIENT_UNAVAILABLE', 'ru', over!.params)).not.toMatch(/15\u00a0000/);
    const simplified = await userAt('simplified');
    await fund(ctx, simplified, rub(59_999, 99));
    expect(await receive(simplified, 1n)).toBeNull();
    expect((await receive(simplified, 2n))?.code).toBe('RECIPIENT_UNAVAILABLE');
  });

  it('counts other currencies in roubles at the stored rate (docs/decisions/exchange.md#exchange-between-ones-own-accounts)', async () => {
    const id = await userAt('anonymous');
    await fund(ctx, id, rub(14_000));
    // 12.50 $ at the sandbox's 80 ₽ is 1 000 ₽: the 15 000 ₽ cap is reached.
    await fund(ctx, id, 12_50n, 'USD');
    expect((await topUp(id, 1n))?.code).toBe('LIMIT_BALANCE');
    expect((await topUp(id, 1n, undefined, 'USD'))?.code).toBe('LIMIT_BALANCE');
    // Payments to merchants in dollars count toward the monthly limit (40 000 ₽) in roubles.
    await fund(ctx, id, 1_000_00n, 'USD');
    expect(await paymentCheck(id, 'payment', 500_00n, null, 'USD')).toBeNull();
    expect((await paymentCheck(id, 'payment', 500_01n, null, 'USD'))?.code).toBe('LIMIT_MONTHLY');
    await fund(ctx, await payee(), 1n, 'USD');
    expect((await paymentCheck(id, 'transfer', rub(1), await payee(), 'USD'))?.code).toBe(
      'TRANSFER_NOT_ALLOWED',
    );
  });

  it('serialises one person’s concurrent top-ups: only those within the cap get through', async () => {
    const id = await userAt('anonymous');
    // Five top-ups of 6 000 ₽ at once against a 15 000 ₽ cap: exactly two fit.
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () =>
        failure(
          ctx.db.tx(async (q) => {
            const refusal = await topUpRefusal(
              q,
              ctx.config.levelRulesJson,
              id,
              'RUB',
              rub(6_000),
              clock.now(),
            );
            if (refusal) throw refusalError(refusal);
            const account = (await userAccount(q, id, 'RUB'))!;
            const source = await systemAccount(q, 'RUB', 'adjustments');
            await transfer(q, {
              debit: source.id,
              credit: account.id,
              amount: rub(6_000),
              currency: 'RUB',
              kind: 'topup',
              idempotencyKey: `test-topup:${randomUUID()}`,
              at: clock.now(),
            });
          }),
        ),
      ),
    );
    expect(attempts.filter((a) => a === null)).toHaveLength(2);
    expect(attempts.filter((a) => a?.code === 'LIMIT_BALANCE')).toHaveLength(3);
    const { rows } = await ctx.db.query<{ balance: bigint }>(
      "SELECT balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'RUB'",
      [id],
    );
    expect(rows[0]!.balance).toBe(rub(12_000));
  });

  it.runIf(usePostgres)('locks two people in one order, so opposite transfers do not deadlock', async () => {
    const a = await userAt('simplified');
    const b = await userAt('simplified');
    await fund(ctx, a, rub(10));
    await fund(ctx, b, rub(10));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
        return pay(ctx.db, {
          id: randomUUID(),
          payer: from,
          payee: to,
          currency: 'RUB',
          amount: 1n,
          kind: 'transfer',
          description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
          at: clock.now(),
          rules: ctx.config.levelRulesJson,
          pinProof: PIN_PROOF,
          call: { name: 'transfer', key: null, requestHash: '', answer: null },
        });
      }),
    );
    expect(results.every((paid) => paid.outcome === 'created')).toBe(true);
  });
});
