/**
 * Providers' signed callbacks: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const providerCalls = {
  paymentsWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/payments',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Payments provider notification (signed)',
    body: s.PaymentWebhook,
    answer: s.WebhookAnswer,
  }),
  payoutsWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/payouts',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Payouts provider notification (signed)',
    body: s.PayoutWebhook,
    answer: s.WebhookAnswer,
  }),
  kycWebhook: def({
    method: 'POST',
    path: '/v2/wallet/webhooks/kyc',
    access: 'provider',
    tag: 'webhooks',
    summary: 'Verification provider notification (signed)',
    body: s.KycWebhook,
    answer: s.WebhookAnswer,
  }),
} as const satisfies Record<string, CallDef>;
