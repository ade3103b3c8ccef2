-- A user's entries in two indexes instead of four (issue 9). Every movement inserts one index entry
-- per index its entries match: a plain transfer wrote 15 (the transfer's primary key and idempotency
-- key, then each user entry into its primary key, (account_id, account_version), the user's and the
-- account's history, statistics, notifications, and the payer's also into the monthly limit).
-- History and notifications both walk a user's entries by creation time, statistics and limits both
-- by opening time, each pair from its own partial index; one index per time does for both, with
-- the columns a filter needs included, so counts and sums stay index-only. A plain transfer now writes 12.
-- Measured before and after with the ledger's function alone driven by pgbench (one client, 10,000
-- accounts, three alternating 8 s runs): 0.436-0.467 ms per transfer before, 0.421-0.429 ms after.
--
--   ledger_entries_user_time   history (its opening entries), notifications (the notifying ones,
--                              `noticeEntrySql`), newest first by (created_at, id)
--   ledger_entries_user_opened statistics (completed money) and the monthly limit (money out),
--                              index-only ranges over opened_at
--   ledger_entries_account_time an account's history, newest first by (created_at, id)
-- The partial predicates are only `user_id IS NOT NULL` (the account's: also the opening phases), which
-- a query's `user_id = $1` implies: no query has to repeat an index's predicate word for word.
-- History pages now break ties on the entry's id instead of the transfer's (its cursor carries the
-- entry, apps/server/src/modules/wallet/service.ts): the order in which they were written.

DROP INDEX ledger_entries_user_history;
DROP INDEX ledger_entries_user_notices;
DROP INDEX ledger_entries_account_history;
DROP INDEX ledger_entries_user_completed;
DROP INDEX ledger_entries_user_outgoing;

CREATE INDEX ledger_entries_user_time ON ledger_entries (user_id, created_at, id) INCLUDE (phase, amount)
  WHERE user_id IS NOT NULL;
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at, id)
  WHERE user_id IS NOT NULL AND phase IN ('single', 'hold');
CREATE INDEX ledger_entries_user_opened ON ledger_entries (user_id, opened_at)
  INCLUDE (account_id, currency, kind, amount, phase)
  WHERE user_id IS NOT NULL;
