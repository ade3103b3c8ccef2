/**
 * Requests, templates, repeated and scheduled transfers, and the split: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const requestsCalls = {
  requestCreate: def({
    method: 'POST',
    path: '/v2/wallet/request',
    access: 'token',
    tag: 'requests',
    summary: 'Ask for money: by phone, by a link anyone signed in may pay, or split among several phones',
    body: s.PaymentRequestCreate,
    answer: s.PaymentRequestCreated,
  }),
  requestList: def({
    method: 'GET',
    path: '/v2/wallet/request',
    access: 'token',
    tag: 'requests',
    summary: 'Requests to pay (incoming) or asked of others (outgoing), newest first',
    query: s.PaymentRequestQuery,
    answer: s.PaymentRequestPage,
  }),
  requestLink: def({
    method: 'GET',
    path: '/v2/wallet/request/link/:token',
    access: 'token',
    tag: 'requests',
    summary: 'The request behind a link, for the signed-in payer (the requester masked)',
    params: s.PaymentRequestTokenParams,
    answer: s.PaymentRequestView,
  }),
  requestPay: def({
    method: 'POST',
    path: '/v2/wallet/request/:id/pay',
    access: 'token',
    tag: 'requests',
    summary: 'Pay a request, confirmed with the PIN; a request is paid at most once',
    params: s.IdParams,
    body: s.PaymentRequestPay,
    answer: s.MoneyAnswer,
    idempotent: true,
  }),
  requestPayCheck: def({
    method: 'POST',
    path: '/v2/wallet/request/:id/pay/check',
    access: 'token',
    tag: 'requests',
    summary:
      'Whether paying this request can go through, before the PIN: its problems and the limits; moves nothing',
    params: s.IdParams,
    answer: s.CheckAnswer,
  }),
  requestDecline: def({
    method: 'POST',
    path: '/v2/wallet/request/:id/decline',
    access: 'token',
    tag: 'requests',
    summary: 'Decline a request one was asked to pay',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  requestCancel: def({
    method: 'POST',
    path: '/v2/wallet/request/:id/cancel',
    access: 'token',
    tag: 'requests',
    summary: 'Cancel a request one made, while it is pending',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  templateList: def({
    method: 'GET',
    path: '/v2/wallet/template',
    access: 'token',
    tag: 'templates',
    summary: 'Saved payees and templates',
    answer: s.TemplatePage,
  }),
  templateCreate: def({
    method: 'POST',
    path: '/v2/wallet/template',
    access: 'token',
    tag: 'templates',
    summary: 'Save a payee (a phone of a wallet user), with an amount or without',
    body: s.TemplateCreate,
    answer: s.TemplateAnswer,
  }),
  templateDelete: def({
    method: 'DELETE',
    path: '/v2/wallet/template/:id',
    access: 'token',
    tag: 'templates',
    summary: 'Delete a template',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  recentRecipients: def({
    method: 'GET',
    path: '/v2/wallet/transfer/recent',
    access: 'token',
    tag: 'transfer',
    summary: 'The people one sent transfers to lately, newest first (at most 10)',
    answer: s.RecentRecipients,
  }),
  transactionRepeat: def({
    method: 'GET',
    path: '/v2/wallet/transaction/:id/repeat',
    access: 'token',
    tag: 'transfer',
    summary:
      "'Повторить': the recipient and amount of one's own outgoing transfer, to fill the transfer form",
    params: s.IdParams,
    answer: s.RepeatAnswer,
  }),
  scheduleList: def({
    method: 'GET',
    path: '/v2/wallet/schedule',
    access: 'token',
    tag: 'schedules',
    summary: 'Scheduled transfers',
    answer: s.SchedulePage,
  }),
  scheduleCreate: def({
    method: 'POST',
    path: '/v2/wallet/schedule',
    access: 'token',
    tag: 'schedules',
    summary:
      "Schedule a transfer to a person (phone), or a deposit into one's own savings goal (goal_id), every week or month, confirmed with the PIN",
    body: s.ScheduleCreate,
    answer: s.ScheduleAnswer,
  }),
  schedulePause: def({
    method: 'POST',
    path: '/v2/wallet/schedule/:id/pause',
    access: 'token',
    tag: 'schedules',
    summary: 'Pause a scheduled transfer: no run happens until it is resumed',
    params: s.IdParams,
    answer: s.ScheduleAnswer,
  }),
  scheduleResume: def({
    method: 'POST',
    path: '/v2/wallet/schedule/:id/resume',
    access: 'token',
    tag: 'schedules',
    summary: 'Resume a paused scheduled transfer from its next period to come',
    params: s.IdParams,
    answer: s.ScheduleAnswer,
  }),
  scheduleDelete: def({
    method: 'DELETE',
    path: '/v2/wallet/schedule/:id',
    access: 'token',
    tag: 'schedules',
    summary: 'Delete a scheduled transfer',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
} as const satisfies Record<string, CallDef>;
