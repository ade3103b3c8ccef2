/** POST /v2/wallet/withdrawal and GET /v2/wallet/withdrawal/:id (the payout's receipt). */
import { CASH_CURRENCY } from '@e-wallet/contract/money';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf, type Receipt } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export interface WithdrawalInput {
  amount: string;
  /** 16 digits, no spaces. */
  pan: string;
}

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
export function startWithdrawal(input: WithdrawalInput): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('withdrawal');
  return (confirmation) =>
    payOutcomeOf(
      attempt.send({
        body: { amount: input.amount, pan: input.pan, currency_code: CASH_CURRENCY, ...confirmation },
      }),
    );
}

export function loadWithdrawalReceipt(receipt: Receipt): Promise<Receipt> {
  return callOk('withdrawalReceipt', { params: { id: receipt.id } });
}
