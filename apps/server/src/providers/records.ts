/**
 * A provider's own record of a money movement, as reconciliation reads it (docs/decisions.md section 12):
 * the provider's id, our reference (a top-up order's id, a payout's id), the amount and the outcome.
 */
import type { CurrencyCode } from '@e-wallet/contract';

export interface ProviderRecord {
  providerId: string;
  /** Our object the provider's record names: a top-up order id or a payout id. */
  reference: string | null;
  amount: bigint;
  currency: CurrencyCode;
  status: 'pending' | 'succeeded' | 'canceled';
  createdAt: Date;
}

/** A provider able to list its records made in [from, to). */
export interface ListsRecords {
  records?(from: Date, to: Date): Promise<ProviderRecord[]>;
}
