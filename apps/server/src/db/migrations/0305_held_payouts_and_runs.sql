-- A held payout's destination and a held schedule's run
-- (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).

-- A withdrawal's card or a GOST payment's account (with the payee's details), kept while its operation
-- is held: sealed (AES-256-GCM under PAYOUTS_KEY, the payout's id as associated data), deleted when the
-- hold ends, released or not.
CREATE TABLE payout_destinations (
  payout_id uuid PRIMARY KEY,
  hold_id uuid NOT NULL UNIQUE REFERENCES money_holds (id),
  sealed bytea NOT NULL,
  created_at timestamptz NOT NULL
);

-- A run whose money the antifraud check held: 'paid' once released, 'skipped' when the hold ends.
ALTER TABLE schedule_runs DROP CONSTRAINT IF EXISTS schedule_runs_outcome_check;
ALTER TABLE schedule_runs ADD CONSTRAINT schedule_runs_outcome_check CHECK (outcome IN ('paid', 'skipped', 'held'));
