-- Identification upgrades (docs/decisions/identification-and-limits.md#identification-levels): one row per
-- verification started with the
-- KYC provider. pending and in_review are active; aborted and complete are final and never change.
CREATE TABLE verifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Insertion order: "the latest verification" of a person, even within one clock tick.
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id),
  target_level text NOT NULL CHECK (target_level IN ('simplified', 'full')),
  -- The provider that runs it and its identifier there (set once the provider has answered).
  provider text NOT NULL,
  provider_ref text,
  verification_url text,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_review', 'aborted', 'complete')),
  reason text,
  -- Highest provider sequence number applied: older or repeated callbacks are ignored.
  last_sequence bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  CHECK ((status IN ('aborted', 'complete')) = (finished_at IS NOT NULL))
);
-- At most one active verification per person, whatever the number of server instances.
CREATE UNIQUE INDEX verifications_one_active_idx ON verifications (user_id)
  WHERE status IN ('pending', 'in_review');
CREATE INDEX verifications_user_idx ON verifications (user_id, seq DESC);
CREATE UNIQUE INDEX verifications_provider_ref_idx ON verifications (provider, provider_ref);

-- Every raise of a person's level, with the verification that caused it: one per verification at most.
CREATE TABLE identification_level_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  verification_id uuid NOT NULL UNIQUE REFERENCES verifications (id),
  from_level text NOT NULL,
  to_level text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX identification_level_changes_user_idx ON identification_level_changes (user_id, id);
