-- The double-entry ledger (architecture.md 'Ledger', style.md 'Money and ledger').
-- Amounts are BIGINT minor units. Every movement is one immutable transfer between two accounts of
-- the same currency; each transfer writes one entry per account and phase, keeping the balance after it.
-- Posted balances of one currency always sum to exactly zero (system accounts may be negative);
-- pending debits of one currency always equal its pending credits.

CREATE TABLE ledger_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The owner of a user account; null for the system accounts of a currency.
  user_id uuid REFERENCES users (id),
  purpose text NOT NULL CHECK (
    purpose IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments')
  ),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- Posted money: moved by settled transfers.
  balance bigint NOT NULL DEFAULT 0,
  -- Money held by pending transfers (two-phase): out of this account / into this account.
  pending_debits bigint NOT NULL DEFAULT 0 CHECK (pending_debits >= 0),
  pending_credits bigint NOT NULL DEFAULT 0 CHECK (pending_credits >= 0),
  -- Incremented by every entry; entries keep it, so an account's history has no gaps.
  version bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  CONSTRAINT ledger_accounts_owner CHECK ((purpose = 'user') = (user_id IS NOT NULL)),
  -- The last line of defence: a user's available money never goes below zero, whatever the code does.
  CONSTRAINT ledger_accounts_user_not_negative CHECK (user_id IS NULL OR balance - pending_debits >= 0),
  -- Lets transfers reference (account, currency) so a transfer can never mix currencies.
  CONSTRAINT ledger_accounts_id_currency UNIQUE (id, currency)
);
-- One account per user and currency; one system account per purpose and currency.
CREATE UNIQUE INDEX ledger_accounts_user_currency ON ledger_accounts (user_id, currency) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (purpose, currency) WHERE user_id IS NULL;

CREATE TABLE ledger_transfers (
  id uuid PRIMARY KEY,
  debit_account_id uuid NOT NULL,
  credit_account_id uuid NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee')),
  -- 'posted' at once for a plain transfer; a hold is 'pending', then 'posted' or 'voided', once.
  status text NOT NULL CHECK (status IN ('pending', 'posted', 'voided')),
  is_hold boolean NOT NULL,
  -- Made by the caller, kept for every retry: a repeat finds this row and moves nothing.
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  -- The business object this transfer belongs to (a top-up order, a payout, a QR payment).
  reference_type text,
  reference_id text,
  -- {"debit": {"ru", "en"}, "credit": {"ru", "en"}}: what each side reads in its history.
  description jsonb,
  created_at timestamptz NOT NULL,
  settled_at timestamptz,
  CONSTRAINT ledger_transfers_idempotency_key UNIQUE (idempotency_key),
  CONSTRAINT ledger_transfers_distinct_accounts CHECK (debit_account_id <> credit_account_id),
  CONSTRAINT ledger_transfers_debit_currency FOREIGN KEY (debit_account_id, currency)
    REFERENCES ledger_accounts (id, currency),
  CONSTRAINT ledger_transfers_credit_currency FOREIGN KEY (credit_account_id, currency)
    REFERENCES ledger_accounts (id, currency),
  CONSTRAINT ledger_transfers_settled CHECK ((status = 'pending') = (settled_at IS NULL)),
  CONSTRAINT ledger_transfers_hold_status CHECK (is_hold OR status = 'posted'),
  CONSTRAINT ledger_transfers_reference CHECK ((reference_type IS NULL) = (reference_id IS NULL))
);
CREATE INDEX ledger_transfers_reference_idx ON ledger_transfers (reference_type, reference_id)
  WHERE reference_type IS NOT NULL;

CREATE TABLE ledger_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id uuid NOT NULL REFERENCES ledger_transfers (id),
  account_id uuid NOT NULL REFERENCES ledger_accounts (id),
  -- The account's owner (null for system accounts), so a user's history is one index range.
  user_id uuid,
  -- 'single': a plain transfer; 'hold': a hold opened; 'post' / 'void': a hold settled or released.
  phase text NOT NULL CHECK (phase IN ('single', 'hold', 'post', 'void')),
  -- The transfer's amount from this account's view: negative on the debit side, positive on the credit side.
  amount bigint NOT NULL CHECK (amount <> 0),
  currency text NOT NULL,
  kind text NOT NULL,
  balance_after bigint NOT NULL,
  pending_debits_after bigint NOT NULL,
  pending_credits_after bigint NOT NULL,
  account_version bigint NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT ledger_entries_account_version UNIQUE (account_id, account_version)
);
-- History and statistics read only the opening entry of each transfer (one per side), newest first,
-- by user or by account; cursor pages are index range scans on (created_at, transfer_id).
CREATE INDEX ledger_entries_user_history ON ledger_entries (user_id, created_at, transfer_id)
  WHERE user_id IS NOT NULL AND phase IN ('single', 'hold');
CREATE INDEX ledger_entries_account_history ON ledger_entries (account_id, created_at, transfer_id)
  WHERE user_id IS NOT NULL AND phase IN ('single', 'hold');

-- Transfers are immutable: only a pending hold's status (and its settled_at) may change, once.
CREATE FUNCTION ledger_transfers_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'ledger transfers are immutable' USING ERRCODE = 'P0001';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
     OR (NEW.id, NEW.debit_account_id, NEW.credit_account_id, NEW.amount, NEW.currency, NEW.kind,
         NEW.is_hold, NEW.idempotency_key, NEW.reference_type, NEW.reference_id, NEW.description,
         NEW.created_at)
        IS DISTINCT FROM
        (OLD.id, OLD.debit_account_id, OLD.credit_account_id, OLD.amount, OLD.currency, OLD.kind,
         OLD.is_hold, OLD.idempotency_key, OLD.reference_type, OLD.reference_id, OLD.description,
         OLD.created_at) THEN
    RAISE EXCEPTION 'ledger transfers are immutable' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER ledger_transfers_guard BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_guard();

CREATE FUNCTION ledger_entries_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are immutable' USING ERRCODE = 'P0001';
END
$$;
CREATE TRIGGER ledger_entries_guard BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_guard();

-- The system accounts of every currency the wallet knows, so no request races to create them.
INSERT INTO ledger_accounts (purpose, currency, created_at)
SELECT purpose, currency, now()
FROM unnest(ARRAY['topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments']) AS purpose,
     unnest(ARRAY['RUB', 'USD', 'EUR', 'IDR', 'JPY', 'GBP']) AS currency;
