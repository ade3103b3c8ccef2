-- The ledger's one-column rules become domains (issue 9): the same rules, checked when a value is
-- written to the column, instead of table CHECK constraints that PostgreSQL evaluates on every row an
-- INSERT or UPDATE writes. A table CHECK is also read back from its stored text and planned again
-- by every statement that writes the table; a domain's check is planned once per session and
-- cached. A movement writes one transfer, two entries and two account balances: `perf` put the
-- CHECK constraints at 9.7% of PostgreSQL's time in a ledger-only run, 3.8% with these domains.
-- The balance UPDATE no longer re-checks an account's purpose and currency, which it never
-- changes. The rules across columns stay table constraints (0020).

CREATE DOMAIN ledger_purpose AS text
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments'));
CREATE DOMAIN currency_code AS text CHECK (VALUE ~ '^[A-Z]{3}$');
CREATE DOMAIN transfer_kind AS text CHECK (VALUE IN ('topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee'));
CREATE DOMAIN transfer_status AS text CHECK (VALUE IN ('pending', 'posted', 'voided'));
CREATE DOMAIN entry_phase AS text CHECK (VALUE IN ('single', 'hold', 'post', 'void'));
CREATE DOMAIN idempotency_key AS text CHECK (length(VALUE) BETWEEN 1 AND 200);
-- Minor units: a transfer's amount is positive, an entry's signed and never zero, held money never negative.
CREATE DOMAIN positive_minor AS bigint CHECK (VALUE > 0);
CREATE DOMAIN nonzero_minor AS bigint CHECK (VALUE <> 0);
CREATE DOMAIN non_negative_minor AS bigint CHECK (VALUE >= 0);

ALTER TABLE ledger_accounts
  DROP CONSTRAINT ledger_accounts_purpose_check,
  DROP CONSTRAINT ledger_accounts_currency_check,
  DROP CONSTRAINT ledger_accounts_pending_debits_check,
  DROP CONSTRAINT ledger_accounts_pending_credits_check,
  ALTER COLUMN purpose TYPE ledger_purpose,
  ALTER COLUMN currency TYPE currency_code,
  ALTER COLUMN pending_debits TYPE non_negative_minor,
  ALTER COLUMN pending_credits TYPE non_negative_minor;

ALTER TABLE ledger_transfers
  DROP CONSTRAINT ledger_transfers_amount_check,
  DROP CONSTRAINT ledger_transfers_kind_check,
  DROP CONSTRAINT ledger_transfers_status_check,
  DROP CONSTRAINT ledger_transfers_idempotency_key_check,
  ALTER COLUMN amount TYPE positive_minor,
  ALTER COLUMN kind TYPE transfer_kind,
  ALTER COLUMN status TYPE transfer_status,
  ALTER COLUMN idempotency_key TYPE idempotency_key;

ALTER TABLE ledger_entries
  DROP CONSTRAINT ledger_entries_amount_check,
  DROP CONSTRAINT ledger_entries_phase_check,
  ALTER COLUMN amount TYPE nonzero_minor,
  ALTER COLUMN phase TYPE entry_phase;
