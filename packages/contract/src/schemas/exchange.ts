/** Exchange between one's own accounts. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { AccountCurrencySchema, Amount, AmountOut, CurrencyCodeSchema, DateTime, Id } from './common.ts';
import { confirmedBy } from './money-flow.ts';

export const ExchangeRate = z.object({
  from_currency: CurrencyCodeSchema,
  to_currency: CurrencyCodeSchema,
  rate: z.string().describe('units of to_currency for one unit of from_currency, before the fee'),
  updated_at: DateTime.describe('when the rates were read from their source'),
});
export const ExchangeRatesAnswer = z.object({
  results: z.array(ExchangeRate),
  next: z.null(),
  source: z.string().describe('the rates provider: sandbox (fixed rates) or cbr (the Bank of Russia)'),
  spread_percent: z.string().describe('the wallet’s fee, a percent of the amount exchanged'),
});
/** Either the amount to give or the amount to receive (then the amount to give is worked out). */
export const ExchangeQuoteRequest = z
  .strictObject({
    from_currency: AccountCurrencySchema,
    to_currency: AccountCurrencySchema,
    amount: Amount.optional().describe('in from_currency, the fee included'),
    receive_amount: Amount.optional().describe('in to_currency, instead of amount'),
  })
  .refine((body) => (body.amount === undefined) !== (body.receive_amount === undefined), {
    message: 'give amount or receive_amount',
    path: ['amount'],
  });
export const ExchangeQuote = z.object({
  status: z.literal('success'),
  quote_id: Id,
  from_currency: AccountCurrencySchema,
  to_currency: AccountCurrencySchema,
  amount: AmountOut.describe('what leaves the from-account, the fee included'),
  receive_amount: AmountOut.describe('what arrives in the to-account'),
  rate: z.string(),
  fee: AmountOut.describe('in from_currency'),
  spread_percent: z.string(),
  rates_updated_at: DateTime,
  expires_at: DateTime,
});
/** Confirmed with the PIN or a passkey, as every money call. */
export const ExchangeRequest = confirmedBy({ quote_id: Id });
export const ExchangeReceipt = z.object({
  id: Id,
  kind: z.literal('exchange'),
  status: z.literal('complete'),
  from_currency: AccountCurrencySchema,
  to_currency: AccountCurrencySchema,
  amount: AmountOut,
  receive_amount: AmountOut,
  rate: z.string(),
  fee: AmountOut,
  created_at: DateTime,
  description: z.string(),
});
export const ExchangeAnswer = z.object({
  status: z.literal('success'),
  message: z.string(),
  receipt: ExchangeReceipt,
});
