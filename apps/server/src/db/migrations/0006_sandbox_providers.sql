-- The sandbox providers' own books: what a real provider keeps on its side. They exist for the
-- sandbox only (WALLET_ENV=production refuses sandbox providers) and are shared by every instance.

-- The SMS outbox: the texts a phone would have received, readable at /sandbox/sms.
CREATE TABLE sandbox_sms_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  phone text NOT NULL,
  text text NOT NULL,
  code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_sms_outbox_phone_idx ON sandbox_sms_outbox (phone, id DESC);

-- Identification applications, decided on the hosted page /sandbox/kyc/:id. The document number is
-- kept masked (last four digits).
CREATE TABLE sandbox_kyc_applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reference text NOT NULL,
  user_id uuid NOT NULL,
  target_level text NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_review', 'approved', 'rejected', 'canceled')),
  reason text,
  sequence bigint NOT NULL DEFAULT 0,
  document_type text,
  document_number_masked text,
  full_name text,
  birth_date text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Card payments of top-up orders, one per order (the order id is the idempotence key). Of the card
-- only the last four digits are kept.
CREATE TABLE sandbox_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  description text NOT NULL,
  return_url text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'canceled')),
  card_last4 text CHECK (card_last4 ~ '^\d{4}$'),
  cancellation_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Payouts, settled SANDBOX_PAYOUT_DELAY_MS after they were made, the outcome decided by the test card
-- then. Rows stay until their signed webhook is delivered, so a restart loses no settlement; the
-- payout's job (providers/payouts/sandbox.ts) claims its row with a lease.
CREATE TABLE sandbox_payouts (
  id uuid PRIMARY KEY,
  -- The wallet's Idempotence-Key: a repeated request answers the first payout.
  idempotence_key text NOT NULL UNIQUE,
  reference uuid NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  destination_type text NOT NULL,
  destination text NOT NULL CHECK (destination !~ '^\d{13,19}$'),
  outcome text NOT NULL CHECK (outcome IN ('succeed', 'fail')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'canceled')),
  reason text,
  due_at timestamptz NOT NULL,
  -- A worker that claimed the row owns it until then; a crashed worker's claim simply runs out.
  lease_until timestamptz,
  notified_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_payouts_due_idx ON sandbox_payouts (due_at) WHERE notified_at IS NULL;
CREATE INDEX sandbox_payouts_reference_idx ON sandbox_payouts (reference);
