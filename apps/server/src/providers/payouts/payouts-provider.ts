/**
 * A payouts provider: sends money out of the wallet to a bank card or a bank account, and reports the
 * outcome by signed webhook (POST /v2/wallet/webhooks/payouts, contract call payoutsWebhook) and on
 * request (`fetch`). A real adapter (YooKassa payouts) implements the same interface; the sandbox is the
 * default. Providers are called only from services (modules/payouts/provider.ts).
 */

import type { CurrencyCode } from '@e-wallet/contract';
import type { UnsignedNotifications } from '../notifications.ts';
import type { ListsRecords } from '../records.ts';
import type { WebhookTransport } from '../sandbox-webhooks.ts';

/** Where the money goes. A card number lives only in memory, for the one request that hands it over. */
export type PayoutDestination =
  | { type: 'bank_card'; number: string }
  | {
      type: 'bank_account';
      account: string;
      bic: string;
      correspondentAccount: string;
      bankName: string;
      payeeName: string;
      payeeInn: string | null;
      kpp: string | null;
      purpose: string | null;
    }
  | {
      /** A Faster Payments System (СБП) transfer by phone to a participant bank (docs/decisions/sbp.md). */
      type: 'sbp';
      /** +7 and 10 digits. */
      phone: string;
      /** The participant's id, as the participants list names it (12 digits). */
      bankId: string;
      /** The recipient check: the payee's verified name the bank compares with the account's owner. */
      recipient: SbpRecipient | null;
    };

/** A participant of the Faster Payments System. */
export interface SbpBank {
  id: string;
  name: string;
}

/** The name the recipient's bank checks the account against (a personal-data object at YooKassa). */
export interface SbpRecipient {
  lastName: string;
  firstName: string;
  middleName: string | null;
}

/** The reason a payout to a recipient who is not the named person is canceled with, ready to show. */
export const REASON_RECIPIENT_CHECK_FAILED =
  'Получатель в банке не совпадает с вашими данными. Деньги возвращены на счёт';

/** Our view of a payout, whatever the provider calls its states (see `payoutStatusOf`). */
export type PayoutStatus = 'pending' | 'succeeded' | 'canceled';

export interface PayoutState {
  /** The provider's identifier of the payout: webhooks name it as payout_id. */
  providerId: string;
  status: PayoutStatus;
  /** Why it was canceled, ready to show; null otherwise. */
  reason: string | null;
}

export interface PayoutRequest {
  /** Our payout id: webhooks name it as reference. */
  reference: string;
  /** Kept for every retry of the same payout, so the provider creates it once. */
  idempotenceKey: string;
  amount: bigint;
  currency: CurrencyCode;
  destination: PayoutDestination;
  description: string;
}

/** The provider refused the payout for good (a 4xx): nothing was sent, the hold may be released. */
export class PayoutRejected extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`payout rejected: ${reason}`);
    this.name = 'PayoutRejected';
    this.reason = reason;
  }
}

/** The provider could not be reached or failed (network, 5xx): the outcome is unknown, ask again later. */
export class PayoutUnavailable extends Error {
  constructor(detail: string) {
    super(`payouts provider unavailable: ${detail}`);
    this.name = 'PayoutUnavailable';
  }
}

export interface PayoutsProvider extends ListsRecords {
  /** Stored beside each payout, so a callback is matched to the provider that made it. */
  readonly id: string;
  /** Which destinations this provider can pay (YooKassa payouts has no bank-account transfers). */
  supports(type: PayoutDestination['type']): boolean;
  /** Starts a payout; throws PayoutRejected or PayoutUnavailable. */
  payout(request: PayoutRequest): Promise<PayoutState>;
  /** The payout's current state as the provider sees it. */
  fetch(providerId: string): Promise<PayoutState>;
  /**
   * The payout made for our reference, or null when the provider has none (our request never
   * arrived); undefined when the provider cannot look payouts up by reference.
   */
  findByReference?(reference: string): Promise<PayoutState | null | undefined>;
  /** The participants of the Faster Payments System; throws PayoutUnavailable when it cannot tell. */
  sbpBanks(): Promise<SbpBank[]>;
  /**
   * The recipient's masked name ('Иван П.') at a participant, where the provider tells it; null otherwise.
   * Throws PayoutUnavailable when it cannot answer.
   */
  sbpRecipientName(phone: string, bankId: string): Promise<string | null>;
  /** Background work of this provider (the sandbox settles due payouts); answers how many it handled. */
  runDue?(): Promise<number>;
  /**
   * A real provider's own notifications (unsigned): `verify` reads one and answers what the provider's
   * API says about the payout it names (fetched), or null when it is not one.
   */
  readonly unsignedNotifications?: UnsignedNotifications<PayoutState>;
  /** How a provider that lives in this server (the sandbox) delivers its callbacks. */
  setTransport?(transport: WebhookTransport): void;
}

/**
 * The one mapping of provider statuses onto ours (YooKassa's and the sandbox's names are the same:
 * pending, succeeded, canceled). An unknown status is a provider change we must not guess about.
 */
export function payoutStatusOf(providerStatus: string): PayoutStatus {
  switch (providerStatus) {
    case 'pending':
      return 'pending';
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    default:
      throw new PayoutUnavailable(`unknown payout status ${JSON.stringify(providerStatus.slice(0, 40))}`);
  }
}

/** Card number helpers: digits only after removing spaces, 16 digits, Luhn. */
export function normalizeCardNumber(input: string): string | null {
  const digits = input.replace(/\s+/g, '');
  if (!/^\d{16}$/.test(digits)) return null;
  return luhnOk(digits) ? digits : null;
}

export function luhnOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The only form a card number is ever stored or shown in: first 6 and last 4 digits. */
export function maskCard(digits: string): string {
  return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
}

/** The only form an СБП payee's phone is kept or shown in: '+7 912 ***-**-67'. */
export function maskPhone(e164: string): string {
  const russian = /^\+7(\d{3})\d{5}(\d{2})$/.exec(e164);
  return russian ? `+7 ${russian[1]} ***-**-${russian[2]}` : `${e164.slice(0, 3)}***${e164.slice(-2)}`;
}
