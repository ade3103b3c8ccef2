/**
 * Payment requests' calls, shared by Home (incoming requests) and the requests feature's pages:
 * GET /v2/wallet/request, GET .../link/:token, POST .../:id/pay (PIN, Idempotency-Key), .../decline.
 */
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../api/client.ts';
import { startMoneyAttempt } from '../api/money-call.ts';
import type { Confirmation } from '../ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../ui/pay-modal/pay-outcome.ts';

export const requestsQuery = (direction: 'incoming' | 'outgoing') =>
  queryOptions({
    queryKey: ['requests', direction],
    queryFn: ({ signal }) => callOk('requestList', { query: { direction }, signal }),
  });

export const requestLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['requests', 'link', token],
    queryFn: ({ signal }) => callOk('requestLink', { params: { token }, signal }),
    retry: false,
  });

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
export function startRequestPay(id: string): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('requestPay');
  return (confirmation) => payOutcomeOf(attempt.send({ params: { id }, body: confirmation }));
}

export function declineRequest(id: string) {
  return callOk('requestDecline', { params: { id } });
}
