-- What the money calls keep beside the ledger: the answers of idempotent calls, top-up orders and payouts.

-- The first answer of every money call made with an Idempotency-Key, stored in the same transaction
-- as the money it moved: a repeat returns it and moves nothing.
CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL REFERENCES users (id),
  call text NOT NULL,
  key text NOT NULL,
  -- HMAC of the request (keyed with a server secret: requests may carry a PIN or a card number).
  request_hash text NOT NULL,
  answer jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, call, key)
);

-- Top-up orders: one per POST /v2/wallet/top-up, paid on the payments provider's page. 'pending'
-- until the provider reports; 'complete' once credited through the ledger (in the same transaction
-- as this status); 'failed' when cancelled or never created. Nothing ever leaves 'complete'.
CREATE TABLE topup_orders (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'complete', 'failed')),
  -- The provider that takes the payment and its identifier there (set once it has answered).
  provider text NOT NULL,
  provider_payment_id text,
  payment_url text,
  -- The ledger transfer that credited the order: present exactly when the order is complete.
  transfer_id uuid UNIQUE REFERENCES ledger_transfers (id),
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  CONSTRAINT topup_orders_credited CHECK ((status = 'complete') = (transfer_id IS NOT NULL)),
  CONSTRAINT topup_orders_finished CHECK ((status = 'pending') = (finished_at IS NULL))
);
CREATE UNIQUE INDEX topup_orders_provider_payment_idx ON topup_orders (provider, provider_payment_id);
-- Pending orders reserve room under the balance cap.
CREATE INDEX topup_orders_user_pending_idx ON topup_orders (user_id, created_at) WHERE status = 'pending';

-- Payouts: money leaving the wallet to a bank card (a withdrawal) or a bank account (a GOST QR
-- payment). The money is held in the ledger when the payout is created, then the hold is posted on
-- the provider's success or voided on its failure, exactly once. A card number is kept only masked.
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
