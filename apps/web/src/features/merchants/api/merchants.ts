/**
 * The merchant account's calls (GET/POST/PATCH /v2/wallet/merchant, its keys, payments, notifications,
 * settlements: PIN or passkey, Idempotency-Key)
 * and the payer's side (GET /v2/wallet/merchant-payments/:id, paying it: PIN or passkey, Idempotency-Key).
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';
import { startMoneyAttempt } from '../../../shared/api/money-call.ts';
import type { Confirmation } from '../../../shared/ui/pay-modal/pay-modal.tsx';
import { type PayOutcome, payOutcomeOf } from '../../../shared/ui/pay-modal/pay-outcome.ts';

export const merchantQuery = queryOptions({
  queryKey: ['merchant'],
  queryFn: ({ signal }) => callOk('merchantOwn', { signal }),
  retry: false,
});
export const merchantPaymentsQuery = queryOptions({
  queryKey: ['merchant', 'payments'],
  queryFn: ({ signal }) => callOk('merchantOwnPayments', { query: { limit: '20' }, signal }),
});
export const merchantKeysQuery = queryOptions({
  queryKey: ['merchant', 'keys'],
  queryFn: ({ signal }) => callOk('merchantKeys', { signal }),
});
export const merchantDeliveriesQuery = queryOptions({
  queryKey: ['merchant', 'deliveries'],
  queryFn: ({ signal }) => callOk('merchantNotifications', { signal }),
});

export const merchantRefundsQuery = queryOptions({
  queryKey: ['merchant', 'refunds'],
  queryFn: ({ signal }) => callOk('merchantOwnRefunds', { signal }),
});
export const merchantSettlementsQuery = queryOptions({
  queryKey: ['merchant', 'settlements'],
  queryFn: ({ signal }) => callOk('merchantSettlements', { signal }),
});

export const applyMerchant = (body: BodyOf<'merchantApply'>) => callOk('merchantApply', { body });
export const updateMerchant = (body: BodyOf<'merchantUpdate'>) => callOk('merchantUpdate', { body });
export const makeKey = (name: string) => callOk('merchantKeyCreate', { body: { name } });
export const revokeKey = (id: string) => callOk('merchantKeyRevoke', { params: { id } });
export const rotateSecret = () => callOk('merchantWebhookSecret');
export const sendAgain = (id: string) => callOk('merchantNotificationResend', { params: { id } });

export const merchantPaymentQuery = (id: string) =>
  queryOptions({
    queryKey: ['merchant-payment', id],
    queryFn: ({ signal }) => callOk('merchantPaymentView', { params: { id }, signal }),
    retry: false,
  });

/** One opening of the PIN modal is one attempt: every confirmation in it carries the same key. */
/** POST .../:id/pay/check: what would refuse paying it, asked before the PIN. */
export const checkMerchantPay = (body: { id: string }, signal: AbortSignal) =>
  callOk('merchantPaymentPayCheck', { params: { id: body.id }, signal });

export function startMerchantPay(id: string): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('merchantPaymentPay');
  return (confirmation) => payOutcomeOf(attempt.send({ params: { id }, body: confirmation }));
}

/** A settlement of the whole available balance: one opening of the PIN modal, one key. */
export function startSettlement(): (confirmation: Confirmation) => Promise<PayOutcome> {
  const attempt = startMoneyAttempt('merchantSettle');
  return (confirmation) => payOutcomeOf(attempt.send({ body: confirmation }));
}
