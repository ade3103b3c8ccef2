/**
 * СБП calls (docs/decisions/sbp.md): the participants (kept an hour in the app; the server keeps them a day),
 * the check before the PIN, and the transfer, one Idempotency-Key per opening of the PIN modal.
 */
import type { AnswerOf, BodyOf } from '@e-wallet/contract';
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../api/client.ts';
import { startMoneyAttempt } from '../api/money-call.ts';
import type { Confirmation } from '../ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf, type Receipt } from '../ui/pay-modal/pay-outcome.ts';

export type SbpBank = AnswerOf<'sbpBanks'>['results'][number];
export type SbpCheckAnswer = AnswerOf<'sbpCheck'>;

export const sbpBanksQuery = () =>
  queryOptions({
    queryKey: ['sbp-banks'],
    queryFn: ({ signal }) => callOk('sbpBanks', { signal }),
    staleTime: 3_600_000,
  });

export const checkSbp = (body: BodyOf<'sbpCheck'>, signal: AbortSignal) =>
  callOk('sbpCheck', { body, signal });

export function startSbpTransfer(input: Omit<BodyOf<'sbpTransfer'>, 'pin' | 'passkey'>) {
  const attempt = startMoneyAttempt('sbpTransfer');
  return (confirmation: Confirmation): Promise<PayOutcome> =>
    payOutcomeOf(attempt.send({ body: { ...input, ...confirmation } }));
}

/** An СБП transfer's receipt is its payout's, as a withdrawal's is. */
export function loadSbpReceipt(receipt: Receipt): Promise<Receipt> {
  return callOk('withdrawalReceipt', { params: { id: receipt.id } });
}

export { CASH_CURRENCY };
