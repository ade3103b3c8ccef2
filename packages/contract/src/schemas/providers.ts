/** Provider callbacks and the sandbox. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { AmountOut, CurrencyCodeSchema, DateTime, DateTimeBound, Id, Phone } from './common.ts';

export const PaymentWebhook = z.object({
  event: z.enum(['payment.succeeded', 'payment.canceled']),
  payment_id: z.string().max(100),
  order: Id,
  amount: AmountOut,
  currency_code: CurrencyCodeSchema,
  occurred_at: DateTimeBound,
});
export const PayoutWebhook = z.object({
  event: z.enum(['payout.succeeded', 'payout.canceled']),
  payout_id: z.string().max(100),
  reference: Id,
  reason: z.string().max(500).nullable(),
  occurred_at: DateTimeBound,
});
export const KycWebhook = z.object({
  event: z.enum(['verification.in_review', 'verification.approved', 'verification.rejected']),
  verification_id: Id,
  reason: z.string().max(500).nullable(),
  sequence: z.number().int().nonnegative(),
  occurred_at: DateTimeBound,
});
export const WebhookAnswer = z.object({ status: z.literal('success') });

// One phone's texts only: an outbox of every phone would hand anyone every user's codes.
export const SmsOutboxQuery = z.strictObject({ phone: Phone });
export const SmsOutbox = z.object({
  results: z.array(z.object({ phone: z.string(), text: z.string(), code: z.string(), created_at: DateTime })),
});

export const VersionFile = z.object({ version: z.string() });
export const Health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });
