/**
 * GET /v2/wallet/exchange/rates, POST /v2/wallet/exchange/quote and POST /v2/wallet/exchange
 * (docs/decisions/exchange.md#exchange-between-ones-own-accounts). The exchange's answer is turned into the
 * pay modal's receipt.
 */
import type { AnswerOf, BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export type Quote = AnswerOf<'exchangeQuote'>;
export type QuoteRequest = BodyOf<'exchangeQuote'>;

export const ratesQuery = () =>
  queryOptions({
    queryKey: ['exchange-rates'],
    queryFn: ({ signal }) => callOk('exchangeRates', { signal }),
    staleTime: 60_000,
  });

export function requestQuote(body: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
  return callOk('exchangeQuote', { body, signal });
}

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
export function startExchange(quoteId: string): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('exchange');
  return (confirmation) =>
    payOutcomeOf(
      attempt.send({ body: { quote_id: quoteId, ...confirmation } }).then((answer) => {
        if (isErrorAnswer(answer)) return answer;
        const receipt = answer.receipt;
        return {
          status: 'success' as const,
          message: answer.message,
          receipt: {
            id: receipt.id,
            kind: 'exchange' as const,
            status: 'complete' as const,
            amount: receipt.amount,
            currency_code: receipt.from_currency,
            created_at: receipt.created_at,
            description: receipt.description,
            // What arrived, where the receipt names the other side.
            counterparty: `+${formatMoney(receipt.receive_amount, receipt.to_currency, currentLanguage())}`,
            card: null,
            failure_reason: null,
          },
        };
      }),
    );
}
