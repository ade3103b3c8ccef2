/**
 * A payments provider: takes a person's card payment on its own hosted page for one of our top-up
 * orders, then tells us the outcome by notification (webhook) and answers it on request. The sandbox
 * (the default) and YooKassa implement it; `createPaymentsProvider` (index.ts) picks one by
 * PAYMENTS_PROVIDER and validates its options at boot.
 *
 * Statuses are ours, whatever the provider calls them; each adapter maps its own in one `switch`:
 *   pending    the person has not paid yet (or the provider is still deciding)
 *   succeeded  the money was taken from the card and is ours to credit (final)
 *   canceled   declined, abandoned or expired; no money was taken (final)
 */

import type { CurrencyCode } from '@e-wallet/contract';
import type { UnsignedNotifications } from '../notifications.ts';
import type { ListsRecords } from '../records.ts';
import type { WebhookTransport } from '../sandbox-webhooks.ts';

export type PaymentStatus = 'pending' | 'succeeded' | 'canceled';

export interface CreatePaymentInput {
  /** Our top-up order id: the provider's idempotence key and the payment's metadata. */
  orderId: string;
  amount: bigint;
  currency: CurrencyCode;
  /** Shown on the payment page and in the provider's dashboard. */
  description: string;
  /** Where the provider sends the browser back after the payment (absolute). */
  returnUrl: string;
  /** By card, or by СБП (docs/decisions/sbp.md#top-up-by-sbp). */
  method: 'card' | 'sbp';
}

export interface CreatedPayment {
  /** The provider's identifier of the payment. */
  paymentId: string;
  /** Where the person pays: absolute, or relative to this server (the sandbox page). */
  url: string;
  status: PaymentStatus;
}

/** What the provider verifiably says about a payment. */
export interface PaymentReport {
  paymentId: string;
  /** Our order the payment was made for (its metadata), or null when it names none. */
  orderId: string | null;
  status: PaymentStatus;
  amount: bigint;
  currency: CurrencyCode;
}

export interface PaymentsProvider extends ListsRecords {
  /** Stored with each order, so a callback or a status check goes to the provider that made it. */
  readonly id: 'sandbox' | 'yookassa';
  /** Creates the payment; creating again for the same order answers the same payment. */
  create(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The payment's current state, from the provider itself (reconciliation, webhook verification). */
  fetch(paymentId: string): Promise<PaymentReport>;
  /**
   * A provider whose notifications carry no signature (YooKassa): the path they arrive at, and what
   * the provider itself says of the payment a notification names (null: not a payment it has).
   */
  readonly unsignedNotifications?: UnsignedNotifications<PaymentReport>;
  /** A provider whose payment page this server serves (the sandbox): the page's controls. */
  readonly hostedPage?: HostedPaymentPage;
}

/** What the sandbox's own payment page (/sandbox/pay/:id) needs of its provider. */
export interface HostedPaymentPage {
  /** How its webhooks travel: the page's module installs one that goes through this server's route. */
  setTransport(transport: WebhookTransport): void;
  payment(id: string): Promise<HostedPayment | null>;
  /** Records the payer's decision and notifies the wallet. */
  decide(id: string, decision: HostedPaymentDecision): Promise<HostedPayment | null>;
}

export interface HostedPayment {
  id: string;
  order_id: string;
  amount: bigint;
  currency: CurrencyCode;
  description: string;
  return_url: string;
  status: PaymentStatus;
  card_last4: string | null;
  method: 'card' | 'sbp';
  cancellation_reason: string | null;
  created_at: Date;
}

export type HostedPaymentDecision =
  | { action: 'pay'; cardLast4: string | null }
  | { action: 'decline'; cardLast4: string | null; reason: 'card_declined' | 'canceled_by_user' };

/** The provider could not be reached or answered nonsense: the caller answers PROVIDER_UNAVAILABLE. */
export class PaymentsProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentsProviderError';
  }
}
