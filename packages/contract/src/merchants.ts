/**
 * Merchants (docs/decisions/merchants.md#merchants): a person's merchant profile and its keys, the
 * operators' queue, the merchant API (server to server, HTTP Basic: merchant id and a secret key) and the
 * payer's side of a merchant payment; calls.ts and ops.ts put the calls in their tables, errors.ts the
 * errors. docs/merchants.md is the integration guide.
 */
import { z } from 'zod';
import type { CallDef } from './calls.ts';
import { MERCHANT_MCCS, type MerchantMcc } from './merchant-codes.ts';
import type { OpsCallDef } from './ops.ts';
import { PlainText, PlainTextRecord, plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

export { MERCHANT_MCCS, type MerchantMcc };

const def = <T extends CallDef>(call: T): T => plainTextCall(call);
const opsDef = <T extends OpsCallDef>(call: T): T => plainTextCall(call);

export const MERCHANT_KINDS = ['self_employed', 'company'] as const;
export const MERCHANT_STATUSES = ['pending', 'active', 'rejected'] as const;
export const MERCHANT_PAYMENT_STATUSES = ['pending', 'succeeded', 'canceled', 'expired'] as const;

const Url = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/ }));
const Inn = z.string().regex(/^\d{10}(\d{2})?$/);
const Bic = z.string().regex(/^\d{9}$/);
const BankAccount = z.string().regex(/^\d{20}$/);

export const MerchantApply = z.strictObject({
  kind: z.enum(MERCHANT_KINDS),
  name: PlainText(100, 2),
  inn: Inn,
  mcc: z.enum(MERCHANT_MCCS),
  site_url: Url,
  bank_bic: Bic,
  bank_account: BankAccount,
  notification_url: Url.optional(),
});
/**
 * What a merchant may change: everything but its kind and INN (a new merchant is a new application). A new
 * settlement account is where the balance goes, so it is confirmed with the PIN or a passkey.
 */
export const MerchantUpdate = MerchantApply.omit({ kind: true, inn: true })
  .partial()
  .extend({ notification_url: Url.nullable().optional(), ...s.Confirmation });

export const Merchant = z.object({
  id: s.Id,
  status: z.enum(MERCHANT_STATUSES),
  kind: z.enum(MERCHANT_KINDS),
  name: z.string(),
  inn: z.string(),
  mcc: z.string(),
  site_url: z.string(),
  bank_bic: z.string(),
  bank_account: z.string(),
  notification_url: z.string().nullable(),
  reason: z.string().nullable().describe('why an operator rejected it'),
  created_at: s.DateTime,
});
export const MerchantAnswer = z.object({ status: z.literal('success'), merchant: Merchant });
/** A merchant as the back office's queue lists it: with the person who applied and who decided. */
export const OpsMerchant = Merchant.extend({
  user_id: s.Id,
  decided_by: z.string().nullable(),
  phone: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});
export type OpsMerchant = z.infer<typeof OpsMerchant>;
export const MerchantOwnAnswer = z.object({
  status: z.literal('success'),
  merchant: Merchant.extend({
    balance: s.AmountOut,
    currency_code: z.literal('RUB'),
    webhook_secret: z.string().describe('signs the notifications (HMAC-SHA256)'),
    fee_percent: z.string().describe("the tariff: the percent of each payment taken as the wallet's fee"),
    account_id: s.Id.describe(
      "the merchant's ledger account: its statement is GET /v2/wallet/statement?account=",
    ),
    settlement_hour: z
      .number()
      .int()
      .describe('the hour (Moscow time) the daily settlement pays the balance to the bank account'),
  }),
});

export const MerchantKeyCreate = z.strictObject({ name: PlainText(60) });
export const MerchantKey = z.object({
  id: s.Id,
  name: z.string(),
  created_at: s.DateTime,
  last_used_at: s.DateTime.nullable(),
});
export const MerchantKeyCreated = z.object({
  status: z.literal('success'),
  key: MerchantKey.extend({ secret: z.string().describe('shown once; kept only as a hash') }),
});
export const MerchantKeyList = z.object({ results: z.array(MerchantKey) });

export const MerchantSecretAnswer = z.object({ status: z.literal('success'), webhook_secret: z.string() });
export const MerchantNotification = z.object({
  id: s.Id,
  event: z.enum(['payment.succeeded', 'payment.canceled', 'refund.succeeded']),
  object_id: s.Id,
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable().describe("the merchant's answer code to the last attempt"),
  last_error: z.string().nullable(),
  created_at: s.DateTime,
  last_attempt_at: s.DateTime.nullable(),
});
export const MerchantNotificationList = z.object({ results: z.array(MerchantNotification) });

/**
 * A settlement (docs/decisions/merchants.md#settlement): the merchant's money paid out to its bank account
 * by the payouts provider, on demand (the whole available balance unless an amount is given) or daily.
 */
export const MerchantSettle = s.confirmedBy({ amount: s.Amount.optional() });
export const MERCHANT_SETTLEMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const MerchantSettlement = z.object({
  id: s.Id,
  status: z.enum(MERCHANT_SETTLEMENT_STATUSES),
  amount: s.AmountOut,
  currency: z.literal('RUB'),
  bank_bic: z.string(),
  bank_account: z.string(),
  origin: z.enum(['manual', 'daily']).describe("'daily' when the daily job made it"),
  failure_reason: z.string().nullable().describe('why the bank did not take it: the money is back'),
  created_at: s.DateTime,
  settled_at: s.DateTime.nullable(),
});
/** As every payout's answer (its receipt, followed at GET /v2/wallet/withdrawal/:id), with the settlement. */
export const MerchantSettleAnswer = s.MoneyAnswer.extend({ settlement: MerchantSettlement });
export const MerchantSettlementList = z.object({ results: z.array(MerchantSettlement) });

// ---------- the merchant API ----------

export const MerchantPaymentCreate = z.strictObject({
  amount: s.Amount,
  currency: z.literal('RUB'),
  description: PlainText(128),
  order_id: PlainText(64),
  return_url: Url,
  metadata: PlainTextRecord(40, 200).optional(),
  /** Seconds the payment may be paid: from a minute to a week; a day unless given. */
  expires_in: z.number().int().min(60).max(604_800).optional(),
});
export const MerchantPayment = z.object({
  id: s.Id,
  status: z.enum(MERCHANT_PAYMENT_STATUSES),
  amount: s.AmountOut,
  currency: z.literal('RUB'),
  description: z.string(),
  order_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  confirmation_url: z.string(),
  qr_payload: z.string(),
  return_url: z.string().nullable(),
  refunded_amount: s.AmountOut,
  payer: z.string().nullable().describe("the payer's masked name ('Иван П.'), once paid"),
  created_at: s.DateTime,
  expires_at: s.DateTime,
  paid_at: s.DateTime.nullable(),
});
export const MerchantPaymentPage = s.page(MerchantPayment);
export const MerchantPaymentQuery = z.strictObject({
  cursor: s.Cursor.optional(),
  limit: s.Limit.optional(),
});

export const MerchantRefundCreate = z.strictObject({
  payment_id: s.Id,
  amount: s.Amount,
  reason: PlainText(200).optional(),
});
export const MerchantRefund = z.object({
  id: s.Id,
  payment_id: s.Id,
  status: z.literal('succeeded'),
  amount: s.AmountOut,
  currency: z.literal('RUB'),
  reason: z.string().nullable(),
  created_at: s.DateTime,
});
export const MerchantRefundList = z.object({ results: z.array(MerchantRefund) });

// ---------- the payer's side ----------

/** A merchant payment as its payer sees it before paying. */
export const MerchantPaymentView = z.object({
  id: s.Id,
  status: z.enum(MERCHANT_PAYMENT_STATUSES),
  amount: s.AmountOut,
  currency_code: z.literal('RUB'),
  description: z.string(),
  merchant: z.object({ name: z.string(), inn: z.string(), verified: z.boolean(), site_url: z.string() }),
  fee: s.AmountOut.describe('what the payer pays on top: nothing'),
  return_url: z.string().nullable(),
  expires_at: s.DateTime,
});
export const MerchantPaymentPay = s.confirmedBy({});
/** A merchant's static QR at the till: the payer types the amount. */
export const MerchantStaticPayment = z.strictObject({
  merchant: s.Id,
  amount: s.Amount,
  comment: PlainText(128).optional(),
});

export const merchantCalls = {
  merchantApply: def({
    method: 'POST',
    path: '/v2/wallet/merchant',
    access: 'token',
    tag: 'merchants',
    summary: 'Apply for a merchant account (the full identification level); an operator approves it',
    body: MerchantApply,
    answer: MerchantAnswer,
  }),
  merchantOwn: def({
    method: 'GET',
    path: '/v2/wallet/merchant',
    access: 'token',
    tag: 'merchants',
    summary: "One's merchant account: its status, balance, tariff and notification secret",
    answer: MerchantOwnAnswer,
  }),
  merchantUpdate: def({
    method: 'PATCH',
    path: '/v2/wallet/merchant',
    access: 'token',
    tag: 'merchants',
    summary: "Change one's merchant account (name, activity, site, bank account, notification URL)",
    body: MerchantUpdate,
    answer: MerchantAnswer,
  }),
  merchantOwnPayments: def({
    method: 'GET',
    path: '/v2/wallet/merchant/payments',
    access: 'token',
    tag: 'merchants',
    summary: "The merchant's payments for its dashboard, newest first, as the merchant API answers them",
    query: MerchantPaymentQuery,
    answer: MerchantPaymentPage,
  }),
  merchantKeyCreate: def({
    method: 'POST',
    path: '/v2/wallet/merchant/keys',
    access: 'token',
    tag: 'merchants',
    summary: 'Make a secret key of the merchant API: answered once, kept only as a hash',
    body: MerchantKeyCreate,
    answer: MerchantKeyCreated,
  }),
  merchantKeys: def({
    method: 'GET',
    path: '/v2/wallet/merchant/keys',
    access: 'token',
    tag: 'merchants',
    summary: "The merchant API's keys in use (never their secrets)",
    answer: MerchantKeyList,
  }),
  merchantKeyRevoke: def({
    method: 'DELETE',
    path: '/v2/wallet/merchant/keys/:id',
    access: 'token',
    tag: 'merchants',
    summary: 'Revoke a key: the merchant API refuses it at once',
    params: s.IdParams,
    answer: s.StatusMessage,
  }),
  merchantWebhookSecret: def({
    method: 'POST',
    path: '/v2/wallet/merchant/webhook-secret',
    access: 'token',
    tag: 'merchants',
    summary: 'Make a new notification secret: notifications are signed with it from now on',
    answer: MerchantSecretAnswer,
  }),
  merchantNotifications: def({
    method: 'GET',
    path: '/v2/wallet/merchant/notifications',
    access: 'token',
    tag: 'merchants',
    summary: 'The delivery log: the latest notifications and the answer code of each one',
    answer: MerchantNotificationList,
  }),
  merchantNotificationResend: def({
    method: 'POST',
    path: '/v2/wallet/merchant/notifications/:id/resend',
    access: 'token',
    tag: 'merchants',
    summary: 'Send a notification again',
    params: s.IdParams,
    answer: MerchantNotification,
  }),
  merchantOwnRefunds: def({
    method: 'GET',
    path: '/v2/wallet/merchant/refunds',
    access: 'token',
    tag: 'merchants',
    summary:
      "The merchant's latest refunds for its dashboard, newest first, as the merchant API answers them",
    answer: MerchantRefundList,
  }),
  merchantSettle: def({
    method: 'POST',
    path: '/v2/wallet/merchant/settlements',
    access: 'token',
    tag: 'merchants',
    summary:
      "Pay the merchant's balance (all of it, or `amount`) out to its bank account, confirmed with the PIN or a passkey",
    body: MerchantSettle,
    answer: MerchantSettleAnswer,
    idempotent: true,
  }),
  merchantSettlements: def({
    method: 'GET',
    path: '/v2/wallet/merchant/settlements',
    access: 'token',
    tag: 'merchants',
    summary: "The merchant's settlements to its bank account, newest first, with their statuses",
    answer: MerchantSettlementList,
  }),
  merchantPaymentCreate: def({
    method: 'POST',
    path: '/merchant/v1/payments',
    access: 'merchant',
    tag: 'merchant-api',
    summary: 'Create a payment: redirect the payer to confirmation_url, or show qr_payload as a QR code',
    body: MerchantPaymentCreate,
    answer: MerchantPayment,
    idempotent: true,
  }),
  merchantPayment: def({
    method: 'GET',
    path: '/merchant/v1/payments/:id',
    access: 'merchant',
    tag: 'merchant-api',
    summary: "One of the merchant's payments",
    params: s.IdParams,
    answer: MerchantPayment,
  }),
  merchantPayments: def({
    method: 'GET',
    path: '/merchant/v1/payments',
    access: 'merchant',
    tag: 'merchant-api',
    summary: "The merchant's payments, newest first, a page at a time",
    query: MerchantPaymentQuery,
    answer: MerchantPaymentPage,
  }),
  merchantPaymentCancel: def({
    method: 'POST',
    path: '/merchant/v1/payments/:id/cancel',
    access: 'merchant',
    tag: 'merchant-api',
    summary: 'Cancel a payment while it is pending: it can no longer be paid',
    params: s.IdParams,
    answer: MerchantPayment,
    idempotent: true,
  }),
  merchantRefundCreate: def({
    method: 'POST',
    path: '/merchant/v1/refunds',
    access: 'merchant',
    tag: 'merchant-api',
    summary:
      "Refund a paid payment, whole or in part, from the merchant's balance: the payer gets it at once",
    body: MerchantRefundCreate,
    answer: MerchantRefund,
    idempotent: true,
  }),
  merchantRefund: def({
    method: 'GET',
    path: '/merchant/v1/refunds/:id',
    access: 'merchant',
    tag: 'merchant-api',
    summary: "One of the merchant's refunds",
    params: s.IdParams,
    answer: MerchantRefund,
  }),
  merchantPaymentView: def({
    method: 'GET',
    path: '/v2/wallet/merchant-payments/:id',
    access: 'token',
    tag: 'merchants',
    summary: "A merchant's payment as its payer sees it: the merchant, the amount, the description",
    params: s.IdParams,
    answer: MerchantPaymentView,
  }),
  merchantPaymentPay: def({
    method: 'POST',
    path: '/v2/wallet/merchant-payments/:id/pay',
    access: 'token',
    tag: 'merchants',
    summary: "Pay a merchant's payment, confirmed with the PIN or a passkey; paid at most once",
    params: s.IdParams,
    body: MerchantPaymentPay,
    answer: s.MoneyAnswer,
    idempotent: true,
  }),
  merchantPaymentPayCheck: def({
    method: 'POST',
    path: '/v2/wallet/merchant-payments/:id/pay/check',
    access: 'token',
    tag: 'merchants',
    summary:
      "Whether paying a merchant's payment can go through, before the PIN: its problems and the limits; moves nothing",
    params: s.IdParams,
    answer: s.CheckAnswer,
  }),
  merchantStaticPayment: def({
    method: 'POST',
    path: '/v2/wallet/merchant-payments',
    access: 'token',
    tag: 'merchants',
    summary: "A payment of a merchant's static QR with the amount the payer typed, to pay next",
    body: MerchantStaticPayment,
    answer: MerchantPaymentView,
  }),
} as const satisfies Record<string, CallDef>;

// ---------- the operators' queue ----------

export const opsMerchantCalls = {
  merchants: opsDef({
    method: 'GET',
    path: '/ops/v1/merchants',
    permission: 'read',
    query: z.strictObject({
      status: z.enum(MERCHANT_STATUSES).optional(),
      cursor: s.Cursor.optional(),
      limit: s.Limit.optional(),
    }),
  }),
  merchantApprove: opsDef({
    method: 'POST',
    path: '/ops/v1/merchants/:id/approve',
    permission: 'identify',
    params: s.IdParams,
  }),
  merchantReject: opsDef({
    method: 'POST',
    path: '/ops/v1/merchants/:id/reject',
    permission: 'identify',
    params: s.IdParams,
    body: z.strictObject({ reason: PlainText(500) }),
  }),
} as const;
