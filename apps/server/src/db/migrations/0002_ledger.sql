-- The double-entry ledger (docs/architecture.md 'Ledger'). Amounts are BIGINT minor units. Every
-- movement is one immutable transfer between two accounts of one currency; each transfer writes one
-- entry per account and phase, with the account's balances after it. Posted balances of a currency
-- sum to zero (system accounts may be negative); its pending debits equal its pending credits.
-- Only the functions of db/functions/ledger.sql write these tables.

-- One-column rules as domains: checked when a value is written, planned once per session.
CREATE DOMAIN ledger_purpose AS text
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments'));
CREATE DOMAIN currency_code AS text CHECK (VALUE ~ '^[A-Z]{3}$');
CREATE DOMAIN transfer_kind AS text CHECK (VALUE IN ('topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee'));
CREATE DOMAIN transfer_status AS text CHECK (VALUE IN ('pending', 'posted', 'voided'));
CREATE DOMAIN entry_phase AS text CHECK (VALUE IN ('single', 'hold', 'post', 'void'));
CREATE DOMAIN idempotency_key AS text CHECK (length(VALUE) BETWEEN 1 AND 200);
-- A transfer's amount is positive, an entry's signed and never zero, held money never negative.
CREATE DOMAIN positive_minor AS bigint CHECK (VALUE > 0);
CREATE DOMAIN nonzero_minor AS bigint CHECK (VALUE <> 0);
CREATE DOMAIN non_negative_minor AS bigint CHECK (VALUE >= 0);

CREATE TABLE ledger_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The owner of a user account; null for the system accounts of a currency.
  user_id uuid REFERENCES users (id),
  purpose ledger_purpose NOT NULL,
  currency currency_code NOT NULL,
  -- Posted money: moved by settled transfers.
  balance bigint NOT NULL DEFAULT 0,
  -- Money held by pending transfers (two-phase): out of this account / into this account.
  pending_debits non_negative_minor NOT NULL DEFAULT 0,
  pending_credits non_negative_minor NOT NULL DEFAULT 0,
  -- Incremented by every entry; entries keep it, so an account's history has no gaps.
  version bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  -- The monthly limit's figure, kept by the ledger's writer: the latest calendar month (Moscow time)
  -- in which counted money left this account, and how much left in it (db/functions/limits.sql).
  outgoing_month timestamptz,
  outgoing_in_month bigint NOT NULL DEFAULT 0,
  CONSTRAINT ledger_accounts_owner CHECK ((purpose = 'user') = (user_id IS NOT NULL)),
  -- The last line of defence: a user's available money never goes below zero, whatever the code does.
  CONSTRAINT ledger_accounts_user_not_negative CHECK (user_id IS NULL OR balance - pending_debits >= 0)
);
-- One account per user and currency; one system account per purpose and currency.
CREATE UNIQUE INDEX ledger_accounts_user_currency ON ledger_accounts (user_id, currency) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (purpose, currency) WHERE user_id IS NULL;

-- No foreign keys to the accounts: the one writer inserts a transfer only between the accounts its
-- statement has locked, and accounts are never deleted nor change id, owner or currency (guards in
-- db/functions/ledger.sql); the tests' ledgerViolations checks every transfer's accounts.
CREATE TABLE ledger_transfers (
  id uuid PRIMARY KEY,
  debit_account_id uuid NOT NULL,
  credit_account_id uuid NOT NULL,
  amount positive_minor NOT NULL,
  currency text NOT NULL,
  kind transfer_kind NOT NULL,
  -- 'posted' at once for a plain transfer; a hold is 'pending', then 'posted' or 'voided', once.
  status transfer_status NOT NULL,
  is_hold boolean NOT NULL,
  -- Made by the caller, kept for every retry: a repeat finds this row and moves nothing.
  idempotency_key idempotency_key NOT NULL,
  -- The business object this transfer belongs to (a top-up order, a payout).
  reference_type text,
  reference_id text,
  -- {"debit": {"ru", "en"}, "credit": {"ru", "en"}}: what each side reads in its history.
  description jsonb,
  created_at timestamptz NOT NULL,
  settled_at timestamptz,
  CONSTRAINT ledger_transfers_idempotency_key UNIQUE (idempotency_key),
  CONSTRAINT ledger_transfers_distinct_accounts CHECK (debit_account_id <> credit_account_id),
  CONSTRAINT ledger_transfers_settled CHECK ((status = 'pending') = (settled_at IS NULL)),
  CONSTRAINT ledger_transfers_hold_status CHECK (is_hold OR status = 'posted'),
  CONSTRAINT ledger_transfers_reference CHECK ((reference_type IS NULL) = (reference_id IS NULL))
);
CREATE INDEX ledger_transfers_reference_idx ON ledger_transfers (reference_type, reference_id)
  WHERE reference_type IS NOT NULL;

CREATE TABLE ledger_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id uuid NOT NULL,
  account_id uuid NOT NULL,
  -- The account's owner (null for system accounts), so a user's history is one index range.
  user_id uuid,
  -- 'single': a plain transfer; 'hold': a hold opened; 'post' / 'void': a hold settled or released.
  phase entry_phase NOT NULL,
  -- The transfer's amount from this account's view: negative on the debit side, positive on the credit side.
  amount nonzero_minor NOT NULL,
  currency text NOT NULL,
  kind text NOT NULL,
  balance_after bigint NOT NULL,
  pending_debits_after bigint NOT NULL,
  pending_credits_after bigint NOT NULL,
  account_version bigint NOT NULL,
  -- When this entry was written, and when its transfer was opened (statistics and limits count
  -- money by the opening time without a join to the transfer).
  created_at timestamptz NOT NULL,
  opened_at timestamptz NOT NULL,
  CONSTRAINT ledger_entries_account_version UNIQUE (account_id, account_version)
);
-- history and notifications: a user's entries newest first by (created_at, id)
CREATE INDEX ledger_entries_user_time ON ledger_entries (user_id, created_at, id) INCLUDE (phase, amount)
  WHERE user_id IS NOT NULL;
-- an account's history, its opening entries newest first
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at, id)
  WHERE user_id IS NOT NULL AND phase IN ('single', 'hold');
-- statistics and the monthly limit's sum: index-only ranges over the opening time
CREATE INDEX ledger_entries_user_opened ON ledger_entries (user_id, opened_at)
  INCLUDE (account_id, currency, kind, amount, phase)
  WHERE user_id IS NOT NULL;

-- The system accounts of every currency the wallet knows, so no request races to create them.
INSERT INTO ledger_accounts (purpose, currency, created_at)
SELECT purpose, currency, now()
FROM unnest(ARRAY['topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments']) AS purpose,
     unnest(ARRAY['RUB', 'USD', 'EUR', 'IDR', 'JPY', 'GBP']) AS currency;
