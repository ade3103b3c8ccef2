/**
 * The documents module's SQL: it reads the ledger's tables (never writes them), the payouts and
 * top-up orders that name a transfer, and the users' names for masked parties.
 */

/**
 * One side of a transfer as a receipt tells it: the user's opening entry (its `opened_at` is the
 * transfer's creation, and so is its writing time: the person's index finds it), the other side's
 * owner and, for money paid out, the payout. `$1` the user (or null from a verify code), `$2` the
 * transfer, `$3` the side's sign: -1 debit, 1 credit, 0 whichever side is the user's.
 */
export const RECEIPT_SQL = `
SELECT t.id, t.kind, t.status, t.currency, t.created_at, t.description,
  e.account_id, e.amount, e.balance_after - e.pending_debits_after AS available_after,
  me.first_name AS own_first_name, me.last_name AS own_last_name,
  other.first_name AS other_first_name, other.last_name AS other_last_name,
  p.purpose AS payout_purpose, p.destination AS payout_destination, p.payee_name AS payout_payee,
  coalesce(p.fee, 0) AS fee
FROM ledger_transfers t
JOIN ledger_entries e ON e.transfer_id = t.id AND e.created_at = t.created_at AND e.opened_at = t.created_at
  AND e.phase IN ('single', 'hold') AND e.user_id IS NOT NULL
  AND ($1::uuid IS NULL OR e.user_id = $1::uuid)
  AND ($3::integer = 0 OR sign(e.amount) = $3::integer)
JOIN users me ON me.id = e.user_id
JOIN ledger_accounts oa ON oa.id = CASE WHEN e.amount < 0 THEN t.credit_account_id ELSE t.debit_account_id END
LEFT JOIN users other ON other.id = oa.user_id
LEFT JOIN payouts p ON p.hold_transfer_id = t.id
WHERE t.id = $2::uuid
ORDER BY e.id
LIMIT 1`;

/**
 * The transfer an id of the user's names: the transfer itself (the history's id and a payment's
 * receipt), a payout (a withdrawal's or bank payment's receipt) or a top-up order. `$1` the user.
 */
export const TRANSFER_OF_ID_SQL = `
SELECT $2::uuid AS transfer_id
UNION ALL SELECT hold_transfer_id FROM payouts WHERE id = $2::uuid AND user_id = $1::uuid
UNION ALL SELECT transfer_id FROM topup_orders
  WHERE id = $2::uuid AND user_id = $1::uuid AND transfer_id IS NOT NULL`;

/** The transfer of an entry of the user's (a money notification's id, http/opaque-id.ts). */
export const TRANSFER_OF_ENTRY_SQL = `
SELECT transfer_id FROM ledger_entries WHERE id = $2::bigint AND user_id = $1::uuid`;

/**
 * A period of an account as versions of the account: the first and last entries created in it, by
 * the user's time index. An account's versions have no gaps, so the entries between them chain
 * their balances exactly (each one's balance before is the one before it's balance after).
 */
export const PERIOD_SQL = `
SELECT min(account_version) AS first_version, max(account_version) AS last_version
FROM ledger_entries
WHERE user_id = $1::uuid AND created_at >= $3 AND created_at < $4 AND account_id = $2::uuid`;

/** The account's posted balance before a time: the last entry before it, or nothing (zero). */
export const BALANCE_BEFORE_SQL = `
SELECT balance_after FROM ledger_entries
WHERE user_id = $1::uuid AND created_at < $3 AND account_id = $2::uuid
ORDER BY created_at DESC, id DESC LIMIT 1`;

/**
 * The same two for a merchant's account (docs/decisions/merchants.md#settlement), which no user owns: by the
 * account's versions, filtered by time, once its owner's merchant was checked. `$1` is unused.
 */
export const MERCHANT_PERIOD_SQL = `
SELECT min(account_version) AS first_version, max(account_version) AS last_version
FROM ledger_entries
WHERE $1::uuid IS NULL AND account_id = $2::uuid AND created_at >= $3 AND created_at < $4`;
export const MERCHANT_BALANCE_BEFORE_SQL = `
SELECT balance_after FROM ledger_entries
WHERE $1::uuid IS NULL AND account_id = $2::uuid AND created_at < $3
ORDER BY created_at DESC, id DESC LIMIT 1`;

/**
 * The figures of a period, from the ledger: the balance before its first entry and after its
 * last, and what its posted entries ('single', 'post') moved in and out.
 */
export const PERIOD_FIGURES_SQL = `
SELECT
  (SELECT balance_after - CASE WHEN phase IN ('single', 'post') THEN amount ELSE 0 END
   FROM ledger_entries WHERE account_id = $1::uuid AND account_version = $2) AS opening,
  (SELECT balance_after FROM ledger_entries WHERE account_id = $1::uuid AND account_version = $3) AS closing,
  coalesce(sum(amount) FILTER (WHERE amount > 0), 0)::bigint AS money_in,
  coalesce(-sum(amount) FILTER (WHERE amount < 0), 0)::bigint AS money_out,
  count(*)::integer AS operations
FROM ledger_entries
WHERE account_id = $1::uuid AND account_version BETWEEN $2 AND $3 AND phase IN ('single', 'post')`;

/** One batch of a period's posted entries, in the account's order, after a version. */
export const STATEMENT_BATCH_SQL = `
SELECT e.account_version, e.transfer_id, e.amount, e.balance_after, e.created_at, e.kind, t.description
FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
WHERE e.account_id = $1::uuid AND e.account_version > $2 AND e.account_version <= $3
  AND e.phase IN ('single', 'post')
ORDER BY e.account_version
LIMIT $4`;
