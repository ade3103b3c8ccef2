/**
 * Held operations and approvals (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): GET
 * /v2/wallet/holds and /approvals, and the decisions on one. Queries are kept under 'holds' and 'approvals';
 * the live stream asks them again on every notification (shared/live), so every state shows at once.
 */
import type { AnswerOf, BodyOf } from '@e-wallet/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callApi, callOk } from '../../../shared/api/client.ts';
import { callMoney } from '../../../shared/api/money-call.ts';

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

/** A decision on one of my held operations, or on one I am asked to approve. */
export type Decision =
  | { id: string; decision: 'confirm'; body: BodyOf<'holdConfirm'> }
  | { id: string; decision: 'approve'; body: BodyOf<'approvalApprove'> }
  | { id: string; decision: 'cancel' | 'decline' };

function decide(d: Decision) {
  const params = { id: d.id };
  switch (d.decision) {
    case 'confirm':
      return callMoney('holdConfirm', { params, body: d.body });
    case 'approve':
      return callMoney('approvalApprove', { params, body: d.body });
    case 'cancel':
      return callApi('holdCancel', { params });
    case 'decline':
      return callApi('approvalDecline', { params });
  }
}

/** Decides, then asks again every list a decision changes; a refusal is the server's words. */
export function useDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (d: Decision) => {
      const answer = await decide(d);
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer;
    },
    onSuccess: () => {
      for (const queryKey of [['holds'], ['approvals'], ['wallet']])
        void client.invalidateQueries({ queryKey });
    },
  });
}

export const OPEN_HOLD = new Set(['held', 'awaiting_approval']);
