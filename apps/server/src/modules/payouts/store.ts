import type { AnswerOf, CurrencyCode } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import type { PayoutDestination } from '../../providers/payouts/payouts-provider.ts';

export type Receipt = AnswerOf<'withdrawalReceipt'>;
export type PayoutPurpose = 'withdrawal' | 'payment' | 'settlement';
export type PayoutRecordStatus = 'created' | 'pending' | 'succeeded' | 'failed';

/**
 * How long an accepted payout waits before its job asks the provider about it (a webhook may be lost),
 * and between checks while it is pending: PAYOUT_CHECK_SECONDS, 60 by default.
 */
export const checkAfterMs = (ctx: AppContext) => ctx.config.PAYOUT_CHECK_SECONDS * 1000;
export const PAYOUT_QUEUE = 'payout-check';
/**
 * A payout still open this long after it was made needs an operator (the worker asks every minute);
 * so it is also the latest a person is told to expect the money on the card.
 */
export const PAYOUT_STUCK_AFTER_MS = 30 * 60_000;
/** How long a payout may stay unsubmitted (the server stopped between the hold and the provider call). */
export const PAYOUT_SUBMIT_GRACE_MS = 5 * 60_000;
export const REASON_NOT_SUBMITTED = 'Выплата не была передана в банк. Деньги возвращены на счёт';
export const REASON_PROVIDER_REJECTED = 'Выплата отклонена';

export interface PayoutRow {
  id: string;
  user_id: string;
  purpose: PayoutPurpose;
  amount: bigint;
  currency: CurrencyCode;
  destination_type: PayoutDestination['type'];
  destination: string;
  payee_name: string | null;
  /** An СБП payout's bank (kept in payee_details); null for the others. */
  bank_name: string | null;
  hold_transfer_id: string;
  /** The fee held beside the payout toward 'fees' (docs/decisions/sbp.md#fees): 0 and null without one. */
  fee: bigint;
  fee_transfer_id: string | null;
  provider: string;
  provider_ref: string | null;
  status: PayoutRecordStatus;
  failure_reason: string | null;
  created_at: Date;
  /** A settlement's merchant, whose account the hold leaves; null for a person's payout. */
  merchant_id: string | null;
}

export const COLUMNS = `id, user_id, merchant_id, purpose, amount, currency, destination_type, destination, payee_name,
  CASE WHEN destination_type = 'sbp' THEN payee_details->>'bank_name' END AS bank_name, hold_transfer_id,
  fee, fee_transfer_id, provider, provider_ref, status, failure_reason, created_at`;

/** An СБП payout's phone, sealed for its person's 'repeat' (docs/decisions/sbp.md#saved-payees-and-repeat). */
export const phoneContext = (payoutId: string) => `payout-phone:${payoutId}`;

export async function findPayout(q: Queryable, id: string, lock = false): Promise<PayoutRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const { rows } = await q.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM payouts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}
