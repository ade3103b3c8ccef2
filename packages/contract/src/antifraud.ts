/**
 * Antifraud by the Bank of Russia's rules and the trusted person
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): the operations held before money leaves,
 * what a held money call answers (202), and the trusted person who approves. The calls join the call table
 * (calls.ts) as `antifraudCalls`.
 */
import { z } from 'zod';
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import {
  Amount,
  AmountOut,
  Code,
  CurrencyCodeSchema,
  confirmedBy,
  DateTime,
  HOLD_STATUSES,
  Id,
  IdParams,
  Phone,
  SendCodeAnswer,
} from './schemas.ts';

/** Why an operation waits, by sign (the texts are the server's, in the reader's language). */
export const HOLD_REASONS = [
  'fraud_database',
  'new_session',
  'security_change',
  'large_amount',
  'many_new_payees',
  'trusted_threshold',
  'trusted_new_payee',
] as const;
export const HoldReason = z.enum(HOLD_REASONS);
export type HoldReason = z.infer<typeof HoldReason>;

export const HoldStatus = z.enum(HOLD_STATUSES);

/** What a money call answers, with HTTP 202, when its money is held instead of sent. */
export const HeldAnswer = z.object({
  status: z.enum(['held', 'awaiting_approval']),
  hold_id: Id,
  reason: z.string().describe('why, in plain words in the request’s language'),
  reasons: z.array(HoldReason),
  reason_list: z.array(z.string()).describe('the reasons one by one, the trusted person named'),
});
export type HeldAnswer = z.infer<typeof HeldAnswer>;

export const Hold = z.object({
  id: Id,
  kind: z.enum(['transfer', 'payment', 'withdrawal']),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  payee: z.string().describe("masked: 'Иван П.'"),
  reasons: z.array(HoldReason),
  reason: z.string(),
  reason_list: z.array(z.string()).describe('the reasons one by one, the trusted person named'),
  status: HoldStatus,
  created_at: DateTime,
  expires_at: DateTime,
  approver: z.string().nullable().describe('the trusted person’s masked name, when they approve it'),
});
export const HoldsAnswer = z.object({ results: z.array(Hold), next: z.string().nullable() });
export const HoldAnswer = z.object({ status: z.literal('success'), message: z.string(), hold: Hold });

/** Confirming one's held operation: a fresh sign-in code of one's own phone and the PIN or a passkey. */
export const HoldConfirmRequest = confirmedBy({ confirm_code: Code });
/** Approving another's operation: the trusted person's own PIN or passkey. */
export const ApprovalRequest = confirmedBy({});

export const TRUSTED_STATUSES = ['pending', 'active', 'leaving'] as const;
export const TrustedPerson = z.object({
  phone: Phone,
  name: z.string(),
  threshold: AmountOut.describe('RUB: operations from this amount wait for the trusted person'),
  new_payees: z.boolean(),
  status: z.enum(TRUSTED_STATUSES),
  /** When a removal or a raised threshold takes effect (48 hours after it was asked), else null. */
  effective_at: DateTime.nullable(),
  /** A raised threshold or a switched-off new-payee rule waiting for effective_at. */
  pending: z.object({ threshold: AmountOut, new_payees: z.boolean() }).nullable(),
});
export const TrustedPersonAnswer = z.object({
  status: z.literal('success'),
  trusted_person: TrustedPerson.nullable(),
  /** People who named me and wait for my answer, or whom I approve for. */
  trusting: z.array(z.object({ id: Id, name: z.string(), phone: Phone, status: z.enum(TRUSTED_STATUSES) })),
  /** The trusted person whose role ended last (their wallet closed or froze, or they stepped down), until another is named. */
  left: z
    .object({ name: z.string(), reason: z.enum(['closed', 'frozen', 'left']), left_at: DateTime })
    .nullable(),
});
export const TrustedPersonRequest = z.strictObject({
  phone: Phone,
  threshold: Amount,
  new_payees: z.boolean().default(false),
});
export const TrustedAcceptRequest = z.strictObject({ id: Id });

export const Approval = Hold.omit({ approver: true }).extend({
  person: z.string().describe("who asks: 'Анна С.'"),
});
export const ApprovalsAnswer = z.object({ results: z.array(Approval), next: z.string().nullable() });

const token = { access: 'token', tag: 'antifraud' } as const;
/** As the call table's own `def`: every call refuses control characters in any text it takes. */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const antifraudCalls = {
  holds: def({
    method: 'GET',
    path: '/v2/wallet/holds',
    ...token,
    summary: 'My operations held by the antifraud check or waiting for my trusted person',
    answer: HoldsAnswer,
  }),
  holdConfirm: def({
    method: 'POST',
    path: '/v2/wallet/holds/:id/confirm',
    ...token,
    summary: 'Confirm a held operation with a fresh SMS code and the PIN or a passkey: the money leaves',
    params: IdParams,
    body: HoldConfirmRequest,
    answer: HoldAnswer,
    idempotent: true,
  }),
  holdCode: def({
    method: 'POST',
    path: '/v2/wallet/holds/:id/code',
    ...token,
    summary:
      'Send a fresh code to my own phone for confirming this held operation; its SMS names the amount and payee',
    params: IdParams,
    answer: SendCodeAnswer,
  }),
  holdCancel: def({
    method: 'POST',
    path: '/v2/wallet/holds/:id/cancel',
    ...token,
    summary: 'Cancel a held operation: the money returns',
    params: IdParams,
    answer: HoldAnswer,
  }),
  trustedPerson: def({
    method: 'GET',
    path: '/v2/wallet/trusted-person',
    ...token,
    summary: 'My trusted person, and the people who named me',
    answer: TrustedPersonAnswer,
  }),
  trustedPersonSet: def({
    method: 'PUT',
    path: '/v2/wallet/trusted-person',
    ...token,
    summary: 'Name a trusted person or change the threshold; a raise waits 48 hours, a lowering is at once',
    body: TrustedPersonRequest,
    answer: TrustedPersonAnswer,
  }),
  trustedPersonRemove: def({
    method: 'DELETE',
    path: '/v2/wallet/trusted-person',
    ...token,
    summary: 'Remove my trusted person: takes effect after 48 hours (at once while not yet accepted)',
    answer: TrustedPersonAnswer,
  }),
  trustedPersonAccept: def({
    method: 'POST',
    path: '/v2/wallet/trusted-person/accept',
    ...token,
    summary: 'Accept being the trusted person of the one who named me',
    body: TrustedAcceptRequest,
    answer: TrustedPersonAnswer,
  }),
  trustedPersonLeave: def({
    method: 'POST',
    path: '/v2/wallet/trusted-person/leave',
    ...token,
    summary:
      'Stop being the trusted person of the one who named me (or decline being named): at once, they are told',
    body: TrustedAcceptRequest,
    answer: TrustedPersonAnswer,
  }),
  approvals: def({
    method: 'GET',
    path: '/v2/wallet/approvals',
    ...token,
    summary: 'Operations waiting for my approval as a trusted person',
    answer: ApprovalsAnswer,
  }),
  approvalApprove: def({
    method: 'POST',
    path: '/v2/wallet/approvals/:id/approve',
    ...token,
    summary: 'Approve an operation as the trusted person, with my own PIN or passkey: the money leaves',
    params: IdParams,
    body: ApprovalRequest,
    answer: HoldAnswer,
    idempotent: true,
  }),
  approvalDecline: def({
    method: 'POST',
    path: '/v2/wallet/approvals/:id/decline',
    ...token,
    summary: 'Decline an operation as the trusted person: its money returns',
    params: IdParams,
    answer: HoldAnswer,
  }),
} as const;
