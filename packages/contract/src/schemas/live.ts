/** The live wallet: its event stream and web push. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { OwnerProof, ownerProved } from './auth.ts';
import { AmountOut, CurrencyCodeSchema, Id } from './common.ts';
import { Notification, Transaction } from './wallet.ts';

/** The stream's events, by name: `data` of each is one JSON object. */
export const TransactionEvent = Transaction.extend({
  balance: AmountOut.describe('the account’s balance after this operation'),
});
export const BalanceEvent = z.object({
  account_id: Id,
  currency_code: CurrencyCodeSchema,
  balance: AmountOut,
});
export const NotificationEvent = z.object({ notification: Notification, unread: z.number().int() });
export const SessionEvent = z.object({ reason: z.enum(['revoked', 'expired']) });
export const ReadyEvent = z.object({ resumed: z.boolean() });
/** A page's first stream asks for what changed since it asked for its data (at most a minute back). */
export const EventStreamQuery = z.strictObject({
  replay_ms: z
    .string()
    .regex(/^(?:\d{1,4}|[1-5]\d{4}|60000)$/)
    .optional(),
});
export const EventStreamAnswer = z
  .string()
  .describe(
    'text/event-stream: events transaction, balance, notification, session, ready; a comment line as heartbeat',
  );

export const PushKeyAnswer = z.object({ public_key: z.string() });
const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/);
/** A new device for alerts: proved with the PIN or a fresh SMS code, as every change of where alerts go. */
export const PushSubscriptionRequest = ownerProved({
  endpoint: z.string().min(1).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64Url.max(200), auth: Base64Url.max(100) }),
});
export const PushUnsubscribeRequest = z.strictObject({ endpoint: z.string().min(1).max(2000) });
export const NotificationSettings = z.object({
  push_money_in: z.boolean(),
  push_money_out: z.literal(true).describe('money out is always told'),
  push_security: z.boolean(),
  push_subscribed: z.boolean().describe('this person has at least one push subscription'),
});
/** Switching security alerts off needs the PIN or a fresh SMS code (the server asks: FIELD_REQUIRED). */
export const NotificationSettingsRequest = z.strictObject({
  push_money_in: z.boolean().optional(),
  push_security: z.boolean().optional(),
  ...OwnerProof,
});
