-- Antifraud by the Bank of Russia's rules and the trusted person
-- (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).

-- Held money waits in a system account of its own, so the ledger shows it apart from payouts.
ALTER DOMAIN ledger_purpose DROP CONSTRAINT IF EXISTS ledger_purpose_check;
ALTER DOMAIN ledger_purpose ADD CONSTRAINT ledger_purpose_check
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments',
    'exchange', 'antifraud_hold'));
INSERT INTO ledger_accounts (purpose, currency, created_at)
SELECT 'antifraud_hold', currency, now() FROM unnest(ARRAY['RUB', 'USD', 'EUR', 'IDR', 'JPY', 'GBP']) AS currency
ON CONFLICT DO NOTHING;

-- An operation held before its money left: the ledger hold (payer -> antifraud_hold) keeps the money,
-- and `door` is the money call's door as it was asked, opened again when the hold is released.
CREATE TABLE money_holds (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  call_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('transfer', 'payment', 'withdrawal')),
  payee_id uuid REFERENCES users (id),
  payee_label text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  door jsonb NOT NULL,
  answer jsonb NOT NULL,
  hold_transfer_id uuid NOT NULL UNIQUE,
  movement_id uuid NOT NULL UNIQUE,
  reasons text[] NOT NULL,
  status text NOT NULL CHECK (status IN ('held', 'awaiting_approval', 'releasing', 'released', 'cancelled',
    'expired', 'declined', 'refused')),
  approver_id uuid REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  decision_reason text
);
CREATE INDEX money_holds_user_idx ON money_holds (user_id, created_at DESC);
CREATE INDEX money_holds_approver_idx ON money_holds (approver_id, created_at DESC) WHERE approver_id IS NOT NULL;
CREATE INDEX money_holds_open_idx ON money_holds (expires_at) WHERE status IN ('held', 'awaiting_approval');

-- Every refusal of a recipient the fraud database lists, kept for the operators and the regulator.
CREATE TABLE fraud_refusals (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  call_name text NOT NULL,
  recipient_kind text NOT NULL CHECK (recipient_kind IN ('phone', 'card', 'account')),
  -- Masked as the rest of the wallet shows it: a card's first 6 and last 4 digits.
  recipient text NOT NULL,
  source text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX fraud_refusals_time_idx ON fraud_refusals (created_at DESC);

-- Recipients operators marked as fraud: the local list beside the regulator's database. A card is kept
-- only as its keyed hash (`value_hash`), a phone or an account as it is.
CREATE TABLE fraud_list (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('phone', 'card', 'account')),
  value text NOT NULL,
  reason text NOT NULL,
  proposed_by uuid NOT NULL,
  proposed_at timestamptz NOT NULL,
  confirmed_by uuid,
  confirmed_at timestamptz,
  -- A removal under four eyes too: proposed by one operator, done by another.
  removal_proposed_by uuid,
  removal_reason text,
  removed_by uuid,
  removed_at timestamptz,
  CHECK (confirmed_by IS NULL OR confirmed_by <> proposed_by),
  CHECK (removed_by IS NULL OR removed_by <> removal_proposed_by)
);
CREATE UNIQUE INDEX fraud_list_value_idx ON fraud_list (kind, value) WHERE removed_at IS NULL;

-- A person's trusted person ('вторая рука'). A removal or a raise waits 48 hours (`change_at`); until
-- then the row stays in force as it was.
CREATE TABLE trusted_people (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  trusted_id uuid NOT NULL REFERENCES users (id),
  threshold bigint NOT NULL CHECK (threshold >= 0),
  new_payees boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'active')),
  -- A change waiting for change_at: 'remove', or 'raise' to pending_threshold / pending_new_payees.
  change text CHECK (change IN ('remove', 'raise')),
  change_at timestamptz,
  pending_threshold bigint,
  pending_new_payees boolean,
  created_at timestamptz NOT NULL,
  accepted_at timestamptz,
  CHECK (trusted_id <> user_id),
  CHECK ((change IS NULL) = (change_at IS NULL))
);
CREATE INDEX trusted_people_trusted_idx ON trusted_people (trusted_id);
