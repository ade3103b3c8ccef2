/** Requests, templates, repeated and scheduled transfers, and the split. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { PlainText } from '../plain-text.ts';
import {
  AccountCurrencySchema,
  Amount,
  AmountOut,
  CurrencyCodeSchema,
  Cursor,
  DateTime,
  DateTimeBound,
  Id,
  Limit,
  PayeeKind,
  Phone,
  page,
  SbpBank,
  SbpBankId,
} from './common.ts';
import { confirmedBy } from './money-flow.ts';

// (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers) ----------

export const PaymentRequestStatus = z.enum(['pending', 'paid', 'declined', 'cancelled', 'expired']);
export const PaymentRequestCreate = z
  .strictObject({
    amount: Amount,
    currency_code: CurrencyCodeSchema,
    /** One payer by phone; without it (and without `phones`) the request is paid by whoever opens its link. */
    phone: Phone.optional(),
    /** A split: the amount is shared among these phones, each paying its share. */
    phones: z.array(Phone).min(1).max(20).optional(),
    /** A split that counts the requester too: 1,500 among me and two friends asks each friend 500. */
    include_me: z.boolean().optional(),
    comment: PlainText(140, 0).optional(),
  })
  .refine((body) => !(body.phone && body.phones), { message: 'phone or phones, not both', path: ['phones'] })
  .refine((body) => !body.phones || body.phones.length >= (body.include_me ? 1 : 2), {
    message: 'a split needs two people besides the requester, or one with include_me',
    path: ['phones'],
  })
  .refine((body) => !body.include_me || body.phones, {
    message: 'include_me is for a split',
    path: ['include_me'],
  });
export const PaymentRequestShare = z.object({
  id: Id,
  phone: z.string().nullable(),
  amount: AmountOut,
  url: z.string(),
});
export const PaymentRequestCreated = z.object({
  id: Id,
  status: PaymentRequestStatus,
  url: z.string().describe('<PUBLIC_URL>/pay/r/<token>: whoever may pay it opens it'),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  expires_at: DateTime,
  /** Every share of a split (one element otherwise); `id` and `url` are the first share's. */
  shares: z.array(PaymentRequestShare),
});
export const PaymentRequestView = z.object({
  id: Id,
  direction: z.enum(['incoming', 'outgoing']),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  status: PaymentRequestStatus,
  /** The other party's masked name ('Иван П.'); null for a link request nobody has paid yet. */
  counterparty: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: DateTime,
  expires_at: DateTime,
});
export const PaymentRequestQuery = z.strictObject({
  direction: z.enum(['incoming', 'outgoing']).optional(),
  cursor: Cursor.optional(),
  limit: Limit.optional(),
});
export const PaymentRequestPage = page(PaymentRequestView);
export const PaymentRequestTokenParams = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/),
});
export const PaymentRequestPay = confirmedBy({});

export const TemplateCreate = z.strictObject({
  name: PlainText(60),
  phone: Phone,
  amount: Amount.optional(),
  currency_code: CurrencyCodeSchema,
  /** 'sbp': a phone at a bank (`bank_id`, a participant), sent by СБП in roubles; 'wallet' when absent. */
  kind: PayeeKind.optional(),
  bank_id: SbpBankId.optional(),
});
export const Template = z.object({
  id: Id,
  name: z.string(),
  phone: Phone,
  kind: PayeeKind,
  /** An СБП payee's bank; null for a wallet user. */
  bank: SbpBank.nullable(),
  recipient: z
    .string()
    .describe("masked name of the person the phone belongs to ('' for an СБП payee: the bank tells it)"),
  amount: AmountOut.nullable(),
  currency_code: CurrencyCodeSchema,
  created_at: DateTime,
});
export const TemplatePage = page(Template);
export const TemplateAnswer = z.object({ status: z.literal('success'), template: Template });
export const RecentRecipient = z.object({ phone: Phone, name: z.string(), last_at: DateTime });
export const RecentRecipients = z.object({ results: z.array(RecentRecipient), next: z.null() });
export const RepeatAnswer = z.object({
  status: z.literal('success'),
  phone: Phone,
  /** 'sbp': an СБП transfer, to fill the СБП form with its bank. */
  kind: PayeeKind,
  bank: SbpBank.nullable(),
  name: z.string(),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
});

export const SchedulePeriod = z.enum(['week', 'month']);
/** A transfer to a person by phone, or a regular deposit into one's own goal (`goal_id`): one of the two. */
export const ScheduleCreate = confirmedBy({
  phone: Phone.optional(),
  goal_id: Id.optional().describe("one of the person's open savings goals, in its currency"),
  amount: Amount,
  currency_code: AccountCurrencySchema,
  period: SchedulePeriod,
  first_run_at: DateTimeBound,
  ends_at: DateTimeBound.optional(),
}).superRefine((body, ctx) => {
  if ((body.phone === undefined) === (body.goal_id === undefined))
    ctx.addIssue({ code: 'custom', path: ['goal_id'], params: { error: 'SCHEDULE_TARGET' } });
});
export const ScheduleStatus = z.enum(['active', 'paused', 'ended']);
export const Schedule = z.object({
  id: Id,
  /** The person paid's phone; null for a goal's regular deposit. */
  phone: Phone.nullable(),
  /** The goal a regular deposit goes into; null for a transfer. */
  goal_id: Id.nullable(),
  recipient: z.string().describe("the person's masked name, or the goal's name"),
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  period: SchedulePeriod,
  first_run_at: DateTime,
  next_run_at: DateTime.nullable(),
  ends_at: DateTime.nullable(),
  status: ScheduleStatus,
  last_run: z
    .object({ at: DateTime, outcome: z.enum(['paid', 'skipped', 'held']), reason: z.string().nullable() })
    .nullable(),
  created_at: DateTime,
});
export const SchedulePage = page(Schedule);
export const ScheduleAnswer = z.object({ status: z.literal('success'), schedule: Schedule });
