/**
 * Payment requests' calls: POST /v2/wallet/request and /cancel, the lists (GET /v2/wallet/request),
 * a link's request (GET .../link/:token), paying one (POST .../:id/pay: PIN, Idempotency-Key) and
 * declining it.
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi, callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export function createRequest(body: BodyOf<'requestCreate'>) {
  return callApi('requestCreate', { body });
}

export function cancelRequest(id: string) {
  return callOk('requestCancel', { params: { id } });
}

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

/** POST .../:id/pay/check: what would refuse paying it, asked before the PIN. */
export const checkRequestPay = (body: { id: string }, signal: AbortSignal) =>
  callOk('requestPayCheck', { params: { id: body.id }, signal });

export function declineRequest(id: string) {
  return callOk('requestDecline', { params: { id } });
}
