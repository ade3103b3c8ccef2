/**
 * Held operations and approvals (docs/decisions.md section 21): GET /v2/wallet/holds and /approvals,
 * and the decisions on one. Queries are kept under 'holds' and 'approvals'; the live stream asks them
 * again on every notification (shared/live), so every state shows at once.
 */
import type { AnswerOf, BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { isErrorAnswer } from '../api/api-error.ts';
import { callApi, callOk } from '../api/client.ts';
import { callMoney } from '../api/money-call.ts';

export type Hold = AnswerOf<'holds'>['results'][number];
export type Approval = AnswerOf<'approvals'>['results'][number];

export const holdsQuery = queryOptions({
  queryKey: ['holds'],
  queryFn: ({ signal }) => callOk('holds', { signal }),
});

export const approvalsQuery = queryOptions({
  queryKey: ['approvals'],
  queryFn: ({ signal }) => callOk('approvals', { signal }),
});

function words<T>(answer: T): Exclude<T, { status: 'error' }> {
  if (isErrorAnswer(answer)) throw new Error(answer.message);
  return answer as Exclude<T, { status: 'error' }>;
}

export async function confirmHold(id: string, body: BodyOf<'holdConfirm'>) {
  return words(await callMoney('holdConfirm', { params: { id }, body }));
}

export async function cancelHold(id: string) {
  return words(await callApi('holdCancel', { params: { id } }));
}

export async function approveHold(id: string, body: BodyOf<'approvalApprove'>) {
  return words(await callMoney('approvalApprove', { params: { id }, body }));
}

export async function declineHold(id: string) {
  return words(await callApi('approvalDecline', { params: { id } }));
}

export const OPEN_HOLD = new Set(['held', 'awaiting_approval']);
