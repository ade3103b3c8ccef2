/**
 * A provider's own record of a money movement, as reconciliation reads it
 * (docs/decisions/back-office.md#the-operators-back-office): the provider's id, our reference (a top-up
 * order's id, a payout's id), the amount and the outcome.
 */
import type { CurrencyCode } from '@e-wallet/contract';
import type { Queryable } from '../db/client.ts';

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

/**
 * The records of a sandbox provider's own table made in [from, to): `table` has id, `reference`
 * (our object's id), amount, currency, status and created_at.
 */
export async function sandboxRecords(
  db: Queryable,
  table: 'sandbox_payments' | 'sandbox_payouts',
  reference: string,
  from: Date,
  to: Date,
): Promise<ProviderRecord[]> {
  const { rows } = await db.query<{
    id: string;
    reference: string;
    amount: bigint;
    currency: CurrencyCode;
    status: ProviderRecord['status'];
    created_at: Date;
  }>(
    `SELECT id, ${reference} AS reference, amount, currency, status, created_at FROM ${table}
     WHERE created_at >= $1 AND created_at < $2 ORDER BY created_at`,
    [from, to],
  );
  return rows.map((row) => ({
    providerId: row.id,
    reference: row.reference,
    amount: BigInt(row.amount),
    currency: row.currency,
    status: row.status,
    createdAt: row.created_at,
  }));
}
