/** GET /v2/wallet/transfer/recipient (masked name) and POST /v2/wallet/transfer. */
import type { CurrencyCode } from '@e-wallet/contract/money';
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export const recipientQuery = (phone: string | null) =>
  queryOptions({
    queryKey: ['recipient', phone],
    queryFn: ({ signal }) => callOk('recipient', { query: { phone: phone ?? '' }, signal }),
    enabled: !!phone,
    // 'Not found' answers the same again; a person fixes the number instead.
    retry: false,
    staleTime: 60_000,
  });

export interface TransferInput {
  phone: string;
  amount: string;
  currency: CurrencyCode;
}

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
export function startTransfer(input: TransferInput): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('transfer');
  return (confirmation) =>
    payOutcomeOf(
      attempt.send({
        body: { phone: input.phone, amount: input.amount, currency_code: input.currency, ...confirmation },
      }),
    );
}
