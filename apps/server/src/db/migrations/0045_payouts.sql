-- Payouts: money leaving the wallet to a bank card (a withdrawal) or to a bank account (a GOST QR
-- payment). The money is held in the ledger (hold_transfer_id) when the payout is created, then the
-- hold is posted when the provider reports success or voided when it reports failure, exactly once.
-- A full card number is never stored: only its masked form (first 6 and last 4 digits).
CREATE TABLE payouts (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  purpose text NOT NULL CHECK (purpose IN ('withdrawal', 'payment')),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  destination_type text NOT NULL CHECK (destination_type IN ('bank_card', 'bank_account')),
  -- A masked card ('411111******1111') or a bank account number (not a secret: it is printed on invoices).
  destination text NOT NULL CHECK (destination !~ '^\d{13,19}$'),
  -- The payee as a person reads it: the bank account's owner; null for one's own card.
  payee_name text,
  -- Bank details of a bank-account payout (BIC, bank name, purpose...), as read from the QR code.
  payee_details jsonb,
  hold_transfer_id uuid NOT NULL UNIQUE REFERENCES ledger_transfers (id),
  provider text NOT NULL,
  provider_ref text,
  -- created: held, not yet accepted by the provider; pending: accepted; succeeded / failed: final.
  status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'pending', 'succeeded', 'failed')),
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- When the background worker next asks the provider about an open payout (a lost webhook is not lost).
  next_check_at timestamptz,
  settled_at timestamptz,
  CHECK ((status IN ('succeeded', 'failed')) = (settled_at IS NOT NULL))
);
CREATE INDEX payouts_user_idx ON payouts (user_id, created_at DESC);
CREATE INDEX payouts_open_idx ON payouts (next_check_at) WHERE status IN ('created', 'pending');
CREATE UNIQUE INDEX payouts_provider_ref_idx ON payouts (provider, provider_ref) WHERE provider_ref IS NOT NULL;
