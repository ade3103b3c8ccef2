-- One index of a person's entries instead of two (docs/performance.md#what-each-change-gained): history,
-- notifications and the antifraud signs walk it by when an entry was written; statistics, budgets, the
-- monthly limit's recount and receipts by when its transfer opened, which is never later (ledger_move
-- writes greatest(at, opened)), so their range starts at the same time on this index. About 100 B
-- stored and two index insertions (each a random page of its own) less per transfer.
-- Rows written before ledger_move clamped are not checked (NOT VALID): a skew of a few milliseconds
-- between instances' clocks is all they could hold.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_opened_first CHECK (opened_at <= created_at) NOT VALID;
CREATE INDEX ledger_entries_person ON ledger_entries (user_id, created_at, id)
  INCLUDE (opened_at, account_id, currency, kind, amount, phase)
  WHERE user_id IS NOT NULL;
DROP INDEX ledger_entries_user_time;
DROP INDEX ledger_entries_user_opened;
