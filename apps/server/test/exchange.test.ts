/**
 * Exchange between one's own accounts through the API
 * (docs/decisions/exchange.md#exchange-between-ones-own-accounts): rates, quotes that hold 30 seconds, the
 * exchange through the ledger's door (PIN, Idempotency-Key, a quote used once), the level rules, the balance
 * cap and the monthly limit counted in roubles across currencies, transfers in USD that open the receiver's
 * account, and the Bank of Russia's rates from a local fake.
 * Every test ends with the ledger sound: each currency sums to zero.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { topUpRefusal } from '../src/ledger/index.ts';
import { amountFor, basisPoints, receiveOf, scaled } from '../src/modules/exchange/figures.ts';
import { refreshRates } from '../src/modules/exchange/service.ts';
import { parseCbrDaily } from '../src/providers/rates/cbr.ts';
import { startFakeCbr } from './fakes/cbr.ts';
import { fund } from './fund.ts';
import { databaseLabel, startTestServer, TestClock, type TestServer } from './helpers.ts';
import { expectLedgerSound, ledgerViolations } from './invariants.ts';
import { balance, key, type Person, PIN, person } from './withdrawal-helpers.ts';

const rub = (roubles: number) => BigInt(roubles) * 100n;

describe(`exchange (${databaseLabel})`, () => {
  let server: TestServer;
  const clock = new TestClock(Date.parse('2026-03-15T12:00:00Z'));
  beforeAll(async () => {
    // A low monthly limit for the simplified level, to see foreign transfers counted in roubles.
    server = await startTestServer({
      clock,
      env: { IDENTIFICATION_LIMITS: '{"simplified":{"monthly_outgoing_max":3000}}' },
    });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerSound(server));

  function quote(who: Person, body: Record<string, string>) {
    return server.call('POST', '/v2/wallet/exchange/quote', { token: who.token, body });
  }
  function exchange(who: Person, quoteId: string, idempotencyKey?: string, pin = PIN) {
    return server.call('POST', '/v2/wallet/exchange', {
      token: who.token,
      body: { quote_id: quoteId, pin },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });
  }
  function send(from: Person, to: Person, amount: string, currency_code: string) {
    return server.call('POST', '/v2/wallet/transfer', {
      token: from.token,
      body: { phone: to.phone, amount, currency_code, pin: PIN },
      headers: { 'idempotency-key': key() },
    });
  }

  it('answers the rates between the account currencies, with when they were read', async () => {
    const ivan = await person(server);
    const rates = await server.call('GET', '/v2/wallet/exchange/rates', { token: ivan.token });
    expect(rates.status).toBe(200);
    expect(rates.body).toMatchObject({ source: 'sandbox', spread_percent: '1.5', next: null });
    expect(rates.body.results).toHaveLength(12);
    const pair = (from: string, to: string) =>
      rates.body.results.find(
        (r: { from_currency: string; to_currency: string }) =>
          r.from_currency === from && r.to_currency === to,
      );
    expect(pair('RUB', 'USD').rate).toBe('0.0125');
    expect(pair('USD', 'RUB').rate).toBe('80');
    expect(pair('USD', 'EUR').rate).toBe('0.869565217391');
    expect(Date.parse(pair('RUB', 'USD').updated_at)).toBeGreaterThan(0);
    expect((await server.call('GET', '/v2/wallet/exchange/rates')).status).toBe(401);
  });

  it('quotes, then exchanges at the quoted figures: one operation in history, the USD account opened', async () => {
    const ivan = await person(server, { rub: rub(10_000) });
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '1000.00' });
    expect(quoted.status).toBe(200);
    // Fee 1.5 % of 1000.00 = 15.00; 985.00 ₽ / 80 = 12.3125 $, rounded down to 12.31.
    expect(quoted.body).toMatchObject({
      from_currency: 'RUB',
      to_currency: 'USD',
      amount: '1000.00',
      fee: '15.00',
      receive_amount: '12.31',
      rate: '0.0125',
      spread_percent: '1.5',
    });
    expect(Date.parse(quoted.body.expires_at) - clock.now().getTime()).toBe(30_000);
    expect(await balance(server, ivan, 'USD')).toBeUndefined();

    const done = await exchange(ivan, quoted.body.quote_id, key());
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      status: 'success',
      message: 'Обмен выполнен',
      receipt: {
        kind: 'exchange',
        amount: '1000.00',
        receive_amount: '12.31',
        fee: '15.00',
        description: 'Обмен RUB → USD',
      },
    });
    expect(await balance(server, ivan, 'RUB')).toBe('9000.00');
    expect(await balance(server, ivan, 'USD')).toBe('12.31');

    const history = await server.call('GET', '/v2/wallet/transaction', { token: ivan.token });
    const exchanges = history.body.results.filter((r: { kind: string }) => r.kind === 'exchange');
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({
      id: done.body.receipt.id,
      description: 'Обмен RUB → USD',
      amount: '-1000.00',
      currency_code: 'RUB',
      wallet_transaction_type: 'exchange',
      exchange: { from_amount: '1000.00', from_currency: 'RUB', to_amount: '12.31', to_currency: 'USD' },
    });
    const english = await server.call('GET', '/v2/wallet/transaction', {
      token: ivan.token,
      headers: { 'accept-language': 'en' },
    });
    expect(english.body.results[0].description).toBe('Exchange RUB → USD');
    // The USD account's own history shows its leg.
    const wallet = await server.call('GET', '/v2/wallet', { token: ivan.token });
    const usd = wallet.body.results[0].accounts.find(
      (a: { currency_code: string }) => a.currency_code === 'USD',
    );
    const usdHistory = await server.call('GET', `/v2/wallet/transaction?account=${usd.id}`, {
      token: ivan.token,
    });
    expect(usdHistory.body.results).toMatchObject([
      { amount: '12.31', currency_code: 'USD', kind: 'exchange' },
    ]);
    // The operation's receipt (documents) names it.
    const receipt = await server.call('GET', `/v2/wallet/transaction/${done.body.receipt.id}/receipt`, {
      token: ivan.token,
    });
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(200);
    expect(receipt.body).toMatchObject({ kind: 'exchange' });
    // Statistics have an exchange type.
    const stat = await server.call('GET', '/v2/wallet/stat?currency_code=RUB', { token: ivan.token });
    expect(
      stat.body.results.find(
        (e: { wallet_transaction_type: string }) => e.wallet_transaction_type === 'exchange',
      ),
    ).toMatchObject({
      amount_out: '1000.00',
      count: 1,
    });
    // ...but an exchange is not money spent or received: the totals leave it out.
    expect(stat.body).toMatchObject({ total_out: '0.00' });
    const usdStat = await server.call('GET', '/v2/wallet/stat?currency_code=USD', { token: ivan.token });
    expect(usdStat.body).toMatchObject({ total_in: '0.00', total_out: '0.00' });
  });

  it('works from the amount to receive: the least amount that brings it', async () => {
    const ivan = await person(server, { rub: rub(10_000) });
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', receive_amount: '10.00' });
    expect(quoted.status).toBe(200);
    expect(quoted.body.receive_amount).toBe('10.00');
    // 10 $ = 800 ₽ before the fee; 800 / 0.985 = 812.18... -> 812.19 ₽.
    expect(quoted.body.amount).toBe('812.19');
    const pair = {
      from: 'RUB',
      to: 'USD',
      fromRub: scaled('1'),
      toRub: scaled('80'),
      spreadBp: basisPoints('1.5'),
    } as const;
    expect(receiveOf(pair, 81_218n)).toBe(999n);
    expect(amountFor(pair, 1_000n)).toBe(81_219n);
    const both = await quote(ivan, {
      from_currency: 'RUB',
      to_currency: 'USD',
      amount: '1',
      receive_amount: '1',
    });
    expect(both.status).toBe(400);
    const same = await quote(ivan, { from_currency: 'RUB', to_currency: 'RUB', amount: '1' });
    expect(same.body.code).toBe('FIELD_INVALID');
    const tiny = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '0.01' });
    expect(tiny.body.code).toBe('EXCHANGE_AMOUNT_TOO_SMALL');
  });

  it('rounds never in the person’s favour, by less than a minor unit', async () => {
    const pair = {
      from: 'USD',
      to: 'IDR',
      fromRub: scaled('80'),
      toRub: scaled('0.005'),
      spreadBp: basisPoints('1.5'),
    } as const;
    for (const amount of [1n, 7n, 333n, 12_345n, 99_999n]) {
      const fee = (amount * 150n + 9_999n) / 10_000n;
      // Exact value of what arrives, in IDR minor units: (amount - fee) * 80 / 0.005.
      const exact = (amount - fee) * 16_000n;
      expect(receiveOf(pair, amount)).toBe(exact);
      expect(fee * 10_000n >= amount * 150n && (fee - 1n) * 10_000n < amount * 150n).toBe(true);
    }
    const inverse = {
      from: 'IDR',
      to: 'USD',
      fromRub: scaled('0.005'),
      toRub: scaled('80'),
      spreadBp: 0n,
    } as const;
    // 100 000.00 IDR = 500 ₽ = 6.25 $; 100 000.01 IDR is still 6.25 $ (rounded down).
    expect(receiveOf(inverse, 10_000_000n)).toBe(625n);
    expect(receiveOf(inverse, 10_000_001n)).toBe(625n);
  });

  it('a repeated key answers the first result and moves money once; another request with it conflicts', async () => {
    const ivan = await person(server, { rub: rub(1_000) });
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'EUR', amount: '500' });
    const k = key();
    const first = await exchange(ivan, quoted.body.quote_id, k);
    expect(first.status).toBe(200);
    const again = await exchange(ivan, quoted.body.quote_id, k);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balance(server, ivan, 'RUB')).toBe('500.00');
    // 500 - 7.50 = 492.50 ₽ / 92 = 5.3532... € -> 5.35 €.
    expect(await balance(server, ivan, 'EUR')).toBe('5.35');
    const other = await quote(ivan, { from_currency: 'RUB', to_currency: 'EUR', amount: '100' });
    expect((await exchange(ivan, other.body.quote_id, k)).body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('refuses an expired or used quote (QUOTE_EXPIRED), someone else’s, and moves nothing', async () => {
    const ivan = await person(server, { rub: rub(1_000) });
    const expired = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '100' });
    clock.advance(30_001);
    const late = await exchange(ivan, expired.body.quote_id, key());
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('QUOTE_EXPIRED');
    expect(late.body.message).toBe('Курс обмена устарел. Получите новый курс и подтвердите снова');

    const fresh = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '100' });
    clock.advance(29_000);
    expect((await exchange(ivan, fresh.body.quote_id, key())).status).toBe(200);
    const reused = await exchange(ivan, fresh.body.quote_id, key());
    expect(reused.body.code).toBe('QUOTE_EXPIRED');
    expect(await balance(server, ivan, 'RUB')).toBe('900.00');

    const petr = await person(server, { rub: rub(1_000) });
    const his = await quote(petr, { from_currency: 'RUB', to_currency: 'USD', amount: '100' });
    expect((await exchange(ivan, his.body.quote_id, key())).body.code).toBe('QUOTE_EXPIRED');
    // A wrong PIN is the PIN's answer, and leaves the quote usable.
    const wrong = await exchange(petr, his.body.quote_id, key(), '0000');
    expect(wrong.body.code).toBe('PIN_INVALID');
    expect((await exchange(petr, his.body.quote_id, key())).status).toBe(200);
  });

  it('refuses more than the account holds, and the key stays free', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '100.01' });
    expect(quoted.status).toBe(200);
    const k = key();
    const refused = await exchange(ivan, quoted.body.quote_id, k);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(server, ivan, 'USD')).toBeUndefined();
    await fund(server.ctx, ivan.userId, 1n);
    expect((await exchange(ivan, quoted.body.quote_id, k)).status).toBe(200);
    expect(await balance(server, ivan, 'RUB')).toBe('0.00');
    // A USD -> RUB exchange from an account one does not have.
    const none = await quote(ivan, { from_currency: 'EUR', to_currency: 'RUB', amount: '1' });
    expect((await exchange(ivan, none.body.quote_id, key())).body.code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('refuses anonymous wallets and frozen ones', async () => {
    const anna = await person(server, { level: 'anonymous', rub: rub(1_000) });
    const quoted = await quote(anna, { from_currency: 'RUB', to_currency: 'USD', amount: '100' });
    const refused = await exchange(anna, quoted.body.quote_id, key());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('EXCHANGE_NOT_ALLOWED');
    expect(await balance(server, anna, 'RUB')).toBe('1000.00');
    const ivan = await person(server, { rub: rub(1_000) });
    expect((await server.call('POST', '/v2/wallet/freeze', { token: ivan.token, body: {} })).status).toBe(
      200,
    );
    const frozen = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '100' });
    expect((await exchange(ivan, frozen.body.quote_id, key())).body.code).toBe('WALLET_FROZEN');
  });

  it('counts foreign balances in roubles toward the balance cap, at the current rate', async () => {
    const sender = await person(server, { level: 'full', rub: rub(100_000) });
    const petr = await person(server, { rub: rub(40_000) });
    // 200 $ at 80 ₽ = 16 000 ₽: with 40 000 ₽ that is 56 000 ₽ of a 60 000 ₽ cap.
    await fund(server.ctx, petr.userId, 200_00n, 'USD');
    expect((await send(sender, petr, '4000.01', 'RUB')).body.code).toBe('RECIPIENT_UNAVAILABLE');
    // 50 $ = 4 000 ₽ more would also pass the cap; 49.99 $ does not.
    await fund(server.ctx, sender.userId, 1_000_00n, 'USD');
    expect((await send(sender, petr, '50.01', 'USD')).body.code).toBe('RECIPIENT_UNAVAILABLE');
    expect((await send(sender, petr, '49.99', 'USD')).status).toBe(200);
    // 40 000 ₽ + 249.99 $ * 80 = 59 999.20 ₽: a top-up may bring 0.80 ₽ more.
    expect(
      await topUpRefusal(server.ctx.db, server.config.levelRulesJson, petr.userId, 'RUB', 80n, clock.now()),
    ).toBeNull();
    expect(
      (await topUpRefusal(server.ctx.db, server.config.levelRulesJson, petr.userId, 'RUB', 81n, clock.now()))
        ?.rule,
    ).toBe('limit_balance');
    // The rate is read from the one table of rates: a dearer dollar leaves less room.
    await server.ctx.db.query(`UPDATE exchange_rates SET rub_per_unit = 90 WHERE currency = 'USD'`);
    try {
      expect(
        (await topUpRefusal(server.ctx.db, server.config.levelRulesJson, petr.userId, 'RUB', 1n, clock.now()))
          ?.rule,
      ).toBe('limit_balance');
    } finally {
      await refreshRates(server.ctx);
    }
  });

  it('counts transfers to people in any currency toward the monthly limit, in roubles', async () => {
    // Simplified here: 3 000 ₽ a month.
    const ivan = await person(server, { rub: rub(10_000) });
    const petr = await person(server);
    await fund(server.ctx, ivan.userId, 100_00n, 'USD');
    expect((await send(ivan, petr, '30', 'USD')).status).toBe(200); // 2 400 ₽
    const over = await send(ivan, petr, '600.01', 'RUB');
    expect(over.body.code).toBe('LIMIT_MONTHLY');
    expect(over.body.message).toMatch(/осталось 600,00/);
    // An exchange is not money sent to someone: it does not count.
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '5000' });
    expect((await exchange(ivan, quoted.body.quote_id, key())).status).toBe(200);
    expect((await send(ivan, petr, '600.00', 'RUB')).status).toBe(200);
    const info = await server.call('GET', '/v2/wallet/auth/info', { token: ivan.token });
    expect(JSON.stringify(info.body)).toMatch(/3000\.00/);
  });

  it('the migration writes the monthly figures of foreign accounts from their entries', async () => {
    const ivan = await person(server, { rub: rub(100) });
    const petr = await person(server);
    await fund(server.ctx, ivan.userId, 20_00n, 'USD');
    expect((await send(ivan, petr, '5', 'USD')).status).toBe(200);
    // As a database made before the exchange keeps it: no figure on the USD account.
    await server.ctx.db.query(
      `UPDATE ledger_accounts SET outgoing_month = NULL, outgoing_in_month = 0 WHERE user_id = $1 AND currency = 'USD'`,
      [ivan.userId],
    );
    expect((await ledgerViolations(server.ctx.db)).length).toBe(1);
    const migration = readFileSync(
      new URL('../src/db/migrations/0210_exchange.sql', import.meta.url),
      'utf8',
    );
    await server.ctx.db.exec(
      migration.slice(migration.indexOf('-- Money leaving accounts in other currencies')),
    );
    expect(await ledgerViolations(server.ctx.db)).toEqual([]);
  });

  it('exchanged dollars go to another person, whose USD account opens', async () => {
    const ivan = await person(server, { rub: rub(2_000) });
    const petr = await person(server);
    const quoted = await quote(ivan, { from_currency: 'RUB', to_currency: 'USD', amount: '1000' });
    expect((await exchange(ivan, quoted.body.quote_id, key())).status).toBe(200);
    expect((await send(ivan, petr, '10.00', 'USD')).status).toBe(200);
    expect(await balance(server, ivan, 'USD')).toBe('2.31');
    expect(await balance(server, petr, 'USD')).toBe('10.00');
    const back = await quote(petr, { from_currency: 'USD', to_currency: 'RUB', amount: '10' });
    // 10 $ - 0.15 $ fee = 9.85 $ * 80 = 788.00 ₽.
    expect(back.body.receive_amount).toBe('788.00');
    expect((await exchange(petr, back.body.quote_id, key())).status).toBe(200);
    expect(await balance(server, petr, 'RUB')).toBe('788.00');
  });
});

describe(`exchange rates from the Bank of Russia (${databaseLabel})`, () => {
  let server: TestServer;
  let cbr: Awaited<ReturnType<typeof startFakeCbr>>;
  const clock = new TestClock(Date.parse('2026-11-25T09:00:00Z'));
  beforeAll(async () => {
    cbr = await startFakeCbr();
    server = await startTestServer({ clock, env: { RATES_PROVIDER: 'cbr', CBR_URL: cbr.url } });
  });
  afterAll(async () => {
    await server.close();
    await cbr.close();
  });
  afterEach(() => expectLedgerSound(server));

  it('parses the daily file: per-unit roubles from Value and Nominal, known currencies only', () => {
    const day = parseCbrDaily(
      '<ValCurs Date="02.03.2026"><Valute><CharCode>IDR</CharCode><Nominal>10000</Nominal><Value>47,2311</Value></Valute>' +
        '<Valute><CharCode>XDR</CharCode><Nominal>1</Nominal><Value>100,1</Value></Valute></ValCurs>',
    );
    expect(day).toEqual({ date: '2026-03-02', rates: { IDR: '0.00472311' } });
    expect(() => parseCbrDaily('<html>maintenance</html>')).toThrow(/no known currency/);
  });

  it('reads the file into the rates table, shows its age, and keeps the rates when it fails', async () => {
    expect(await refreshRates(server.ctx)).toBe(5);
    const ivan = await person(server, { rub: rub(10_000) });
    const rates = await server.call('GET', '/v2/wallet/exchange/rates', { token: ivan.token });
    expect(rates.body.source).toBe('cbr');
    const usdRub = rates.body.results.find(
      (r: { from_currency: string; to_currency: string }) =>
        r.from_currency === 'USD' && r.to_currency === 'RUB',
    );
    expect(usdRub).toMatchObject({ rate: '78.5012', updated_at: clock.now().toISOString() });
    const quoted = await quote();
    // 1000 ₽ - 15 ₽ = 985 ₽ / 78.5012 = 12.5476... $ -> 12.54.
    expect(quoted.body.receive_amount).toBe('12.54');
    expect(
      (
        await server.call('POST', '/v2/wallet/exchange', {
          token: ivan.token,
          body: { quote_id: quoted.body.quote_id, pin: PIN },
          headers: { 'idempotency-key': key() },
        })
      ).status,
    ).toBe(200);

    cbr.failNext(1);
    clock.advance(3_600_000);
    await expect(refreshRates(server.ctx)).rejects.toThrow(/unavailable/);
    expect((await quote()).status).toBe(200);
    // Rates older than RATES_MAX_AGE_HOURS price no quote.
    clock.advance(72 * 3_600_000);
    expect((await quote()).body.code).toBe('RATES_UNAVAILABLE');
    cbr.setDay('28.11.2026', [{ code: 'USD', nominal: 1, value: '80,0000', name: 'Доллар США' }]);
    await refreshRates(server.ctx);
    expect((await quote()).body.receive_amount).toBe('12.31');
    // EUR was not in the new file: its rate is the old reading, too old for a quote.
    const eur = await server.call('POST', '/v2/wallet/exchange/quote', {
      token: ivan.token,
      body: { from_currency: 'RUB', to_currency: 'EUR', amount: '100' },
    });
    expect(eur.body.code).toBe('RATES_UNAVAILABLE');

    function quote() {
      return server.call('POST', '/v2/wallet/exchange/quote', {
        token: ivan.token,
        body: { from_currency: 'RUB', to_currency: 'USD', amount: '1000' },
      });
    }
  });
});
