-- The sandbox payouts provider's own book (decisions.md section 5): a payout settles after
-- SANDBOX_PAYOUT_DELAY_MS, its outcome decided by the test card when it was created. Only the
-- outcome flag and the masked destination are kept, never the card number. Rows stay here until
-- their signed webhook is delivered, so a crash or a restart loses no settlement; each server
-- instance's worker claims due rows with FOR UPDATE SKIP LOCKED and a lease.
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
