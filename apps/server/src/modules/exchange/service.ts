/**
 * Exchange between a person's own accounts (docs/decisions/exchange.md#exchange-between-ones-own-accounts).
 *
 *   refreshRates(ctx)                     reads the rates provider into exchange_rates, the one table of
 *                                         rates that quotes and the limits (limits.sql) read
 *   ratesOf(ctx)                          GET /v2/wallet/exchange/rates
 *   quoteExchange(ctx, userId, body)      POST /v2/wallet/exchange/quote: figures held for 30 seconds
 *   exchangeMoney(ctx, userId, body, o)   POST /v2/wallet/exchange: a money call (modules/money-calls),
 *                                         the quote moved by the person's door (ledger_exchange)
 */
import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_CURRENCIES,
  type AccountCurrency,
  type AnswerOf,
  type BodyOut,
  CASH_CURRENCY,
  type CurrencyCode,
  exponentOf,
  formatAmount,
  type Language,
  MAX_MINOR,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newTransferId, type SidedText } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { checkConfirmation, moneyCall, requestHash } from '../money-calls/index.ts';
import {
  amountFor,
  basisPoints,
  crossRate,
  decimal,
  feeOf,
  type Pair,
  receiveOf,
  scaled,
} from './figures.ts';

/** How long a quote holds its figures. */
export const QUOTE_SECONDS = 30;

export const EXCHANGE_DONE: Record<Language, string> = {
  ru: 'Обмен выполнен',
  en: 'The exchange is complete',
};

/** The name of an exchange in history and receipts: 'Обмен RUB → USD'. */
export function exchangeTitle(from: string, to: string): SidedText {
  const text = { ru: `Обмен ${from} → ${to}`, en: `Exchange ${from} → ${to}` };
  return { debit: text, credit: text };
}

// ---------- rates ----------

/** Reads the provider and stores its rates (with RUB's own row) in one statement; answers how many. */
export async function refreshRates(ctx: AppContext): Promise<number> {
  const snapshot = await ctx.rates.fetch();
  const codes: string[] = [CASH_CURRENCY];
  const rates: string[] = ['1'];
  const exponents: number[] = [exponentOf(CASH_CURRENCY)];
  for (const [code, rate] of Object.entries(snapshot.rates) as [CurrencyCode, string][]) {
    codes.push(code);
    rates.push(rate);
    exponents.push(exponentOf(code));
  }
  await ctx.db.query(
    `INSERT INTO exchange_rates (currency, rub_per_unit, exponent, source, rates_date, updated_at)
     SELECT c, r::numeric, e, $4, $5::date, $6 FROM unnest($1::text[], $2::text[], $3::int[]) AS t(c, r, e)
     ON CONFLICT (currency) DO UPDATE SET rub_per_unit = EXCLUDED.rub_per_unit, exponent = EXCLUDED.exponent,
       source = EXCLUDED.source, rates_date = EXCLUDED.rates_date, updated_at = EXCLUDED.updated_at`,
    [codes, rates, exponents, ctx.rates.id, snapshot.date, ctx.clock.now()],
  );
  return codes.length - 1;
}

/** Refreshes once (at start); a failed reading keeps the stored rates. */
export function refreshRatesOnce(ctx: AppContext): Promise<void> {
  return refreshRates(ctx).then(
    () => undefined,
    (error: unknown) => console.warn(`rates refresh failed: ${(error as Error).message}`),
  );
}

/** A cron expression for every `minutes` minutes (a divisor of an hour or a day reads evenly). */
export function everyMinutes(minutes: number): string {
  if (minutes < 60) return `*/${minutes} * * * *`;
  return `0 */${Math.min(23, Math.round(minutes / 60))} * * *`;
}

/**
 * Every RATES_REFRESH_MINUTES, once for all instances: a job of the `rates-refresh` queue
 * (docs/decisions/jobs.md#one-job-system). A failed reading fails the job (retried); the stored rates serve
 * meanwhile.
 */
export function defineRatesJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: 'rates-refresh',
    cron: everyMinutes(ctx.config.RATES_REFRESH_MINUTES),
    run: async () => {
      await refreshRates(ctx);
    },
  });
}

interface RateRow {
  currency: CurrencyCode;
  rub_per_unit: string;
  source: string;
  updated_at: Date;
}

async function rateRows(ctx: AppContext): Promise<Map<CurrencyCode, RateRow>> {
  const { rows } = await ctx.db.query<RateRow>(
    'SELECT currency, rub_per_unit::text AS rub_per_unit, source, updated_at FROM exchange_rates',
  );
  return new Map(rows.map((row) => [row.currency, row]));
}

/** Whether a currency's rate may price a quote: read from the configured source, recently enough. */
function usable(ctx: AppContext, row: RateRow | undefined): row is RateRow {
  if (!row) return false;
  if (row.currency === 'RUB') return true;
  if (row.source !== ctx.rates.id) return false;
  // The sandbox's rates never change, so they never grow old.
  if (ctx.rates.id === 'sandbox') return true;
  const age = ctx.clock.now().getTime() - row.updated_at.getTime();
  return age <= ctx.config.RATES_MAX_AGE_HOURS * 3_600_000;
}

function pairOf(ctx: AppContext, rates: Map<CurrencyCode, RateRow>, from: CurrencyCode, to: CurrencyCode) {
  const a = rates.get(from);
  const b = rates.get(to);
  if (!usable(ctx, a) || !usable(ctx, b)) throw new AppError('RATES_UNAVAILABLE');
  const pair: Pair = {
    from,
    to,
    fromRub: scaled(a.rub_per_unit),
    toRub: scaled(b.rub_per_unit),
    spreadBp: basisPoints(ctx.config.EXCHANGE_SPREAD_PERCENT),
  };
  // The older of the two readings is the age of the pair.
  const updatedAt =
    a.currency === 'RUB'
      ? b.updated_at
      : b.currency === 'RUB'
        ? a.updated_at
        : a.updated_at < b.updated_at
          ? a.updated_at
          : b.updated_at;
  return { pair, updatedAt };
}

export async function ratesOf(ctx: AppContext): Promise<AnswerOf<'exchangeRates'>> {
  const rates = await rateRows(ctx);
  const results: AnswerOf<'exchangeRates'>['results'] = [];
  for (const from of ACCOUNT_CURRENCIES)
    for (const to of ACCOUNT_CURRENCIES) {
      if (from === to) continue;
      try {
        const { pair, updatedAt } = pairOf(ctx, rates, from, to);
        results.push({
          from_currency: from,
          to_currency: to,
          rate: decimal(crossRate(pair)),
          updated_at: updatedAt.toISOString(),
        });
      } catch {
        // A pair without a usable rate is left out; a quote for it answers RATES_UNAVAILABLE.
      }
    }
  return { results, next: null, source: ctx.rates.id, spread_percent: ctx.config.EXCHANGE_SPREAD_PERCENT };
}

// ---------- quotes ----------

export async function quoteExchange(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'exchangeQuote'>,
): Promise<AnswerOf<'exchangeQuote'>> {
  const from = body.from_currency;
  const to = body.to_currency;
  if (from === to) throw new AppError('FIELD_INVALID', { field: 'to_currency' });
  const { pair, updatedAt } = pairOf(ctx, await rateRows(ctx), from, to);
  let amount: bigint;
  if (body.amount !== undefined) amount = amountOf(body.amount, from);
  else amount = amountFor(pair, amountOf(body.receive_amount ?? '', to));
  const receive = receiveOf(pair, amount);
  if (receive <= 0n) throw new AppError('EXCHANGE_AMOUNT_TOO_SMALL');
  if (amount > MAX_MINOR || receive > MAX_MINOR) throw new AppError('AMOUNT_TOO_LARGE');
  const fee = feeOf(pair, amount);
  const rate = crossRate(pair);
  const at = ctx.clock.now();
  const expires = new Date(at.getTime() + QUOTE_SECONDS * 1000);
  const id = randomUUID();
  await ctx.db.query(
    `WITH gone AS (DELETE FROM exchange_quotes WHERE user_id = $2 AND expires_at < $9::timestamptz - interval '1 day')
     INSERT INTO exchange_quotes (id, user_id, from_currency, to_currency, amount, fee, receive_amount, rate,
       created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10)`,
    [id, userId, from, to, amount, fee, receive, decimal(rate), at, expires],
  );
  return {
    status: 'success',
    quote_id: id,
    from_currency: from,
    to_currency: to,
    amount: formatAmount(amount, from),
    receive_amount: formatAmount(receive, to),
    rate: decimal(rate),
    fee: formatAmount(fee, from),
    spread_percent: ctx.config.EXCHANGE_SPREAD_PERCENT,
    rates_updated_at: updatedAt.toISOString(),
    expires_at: expires.toISOString(),
  };
}

// ---------- the exchange ----------

interface QuoteRow {
  id: string;
  from_currency: AccountCurrency;
  to_currency: AccountCurrency;
  amount: bigint;
  fee: bigint;
  receive_amount: bigint;
  rate: string;
}

export async function exchangeMoney(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'exchange'>,
  options: { idempotencyKey: string | null; language: Language },
): Promise<AnswerOf<'exchange'>> {
  const { rows } = await ctx.db.query<QuoteRow>(
    `SELECT id, from_currency, to_currency, amount, fee, receive_amount, rate::text AS rate
     FROM exchange_quotes WHERE id = $1 AND user_id = $2`,
    [body.quote_id, userId],
  );
  const quote = rows[0];
  if (!quote) {
    // The PIN's errors first, as for every money call; then a quote that is not there is an old one.
    await checkConfirmation(ctx, userId, body);
    throw new AppError('QUOTE_EXPIRED');
  }
  const from = quote.from_currency;
  const to = quote.to_currency;
  const amount = BigInt(quote.amount);
  const receive = BigInt(quote.receive_amount);
  const at = ctx.clock.now();
  const outId = newTransferId();
  const title = exchangeTitle(from, to);
  const answer: AnswerOf<'exchange'> = {
    status: 'success',
    message: EXCHANGE_DONE[options.language],
    receipt: {
      id: outId,
      kind: 'exchange',
      status: 'complete',
      from_currency: from,
      to_currency: to,
      amount: formatAmount(amount, from),
      receive_amount: formatAmount(receive, to),
      rate: decimal(scaled(quote.rate)),
      fee: formatAmount(BigInt(quote.fee), from),
      created_at: at.toISOString(),
      description: title.debit[options.language],
    },
  };
  return moneyCall(ctx, {
    call: 'exchange',
    person: userId,
    confirmation: body,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, body),
    prepare: () => ({
      answer,
      door: {
        door: 'exchange',
        quoteId: quote.id,
        person: userId,
        outId,
        inId: newTransferId(),
        description: {
          ...title,
          exchange: {
            from_amount: formatAmount(amount, from),
            from_currency: from,
            to_amount: formatAmount(receive, to),
            to_currency: to,
          },
        },
        at,
        rules: ctx.config.levelRulesJson,
      },
    }),
  });
}
