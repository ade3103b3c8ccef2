-- Statistics and monthly limits without a join to transfers. Measured on 10 million transfers: a user
-- with 260k entries in a month took 8.7 s for statistics and 0.7 s for the monthly outgoing sum, both
-- joining every entry to its transfer for the status. Every entry now carries its transfer's creation
-- time, so "completed in a range" is the 'single' and 'post' entries opened in it, and "outgoing since"
-- is the debit entries opened since then less the released ones: each an index-only range.
ALTER TABLE ledger_entries ADD COLUMN opened_at timestamptz;
ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_guard;
UPDATE ledger_entries e SET opened_at = t.created_at FROM ledger_transfers t WHERE t.id = e.transfer_id;
ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_guard;
ALTER TABLE ledger_entries ALTER COLUMN opened_at SET NOT NULL;

CREATE INDEX ledger_entries_user_completed ON ledger_entries (user_id, opened_at)
  INCLUDE (account_id, currency, kind, amount)
  WHERE user_id IS NOT NULL AND phase IN ('single', 'post');
CREATE INDEX ledger_entries_user_outgoing ON ledger_entries (user_id, opened_at)
  INCLUDE (currency, kind, amount, phase)
  WHERE user_id IS NOT NULL AND amount < 0 AND phase IN ('single', 'hold', 'void');
