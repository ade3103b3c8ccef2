-- An account's history is the person's index filtered by the account, which that index includes
-- (docs/performance.md#what-each-change-gained): a person holds a handful of accounts, so a page reads
-- a few more index tuples, and each transfer writes about 140 B and two random index pages less. An
-- account's statement and live events read it by its versions (ledger_entries_account_version).
DROP INDEX ledger_entries_account_time;
