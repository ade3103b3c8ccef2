-- The operators' back office (docs/decisions/back-office.md#the-operators-back-office): operators, their
-- sessions, the append-only audit of everything they do, and refunds proposed by one operator and approved by
-- another.

CREATE TABLE operators (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Kept lower-case: one operator per address.
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('admin', 'compliance', 'support', 'finance')),
  -- scrypt of the password (salt and parameters in the string); the one-time password must be replaced.
  password_hash text NOT NULL,
  password_must_change boolean NOT NULL DEFAULT true,
  -- The TOTP secret sealed (AES-256-GCM under OPS_KEY): it must be read back to check a code.
  totp_sealed bytea NOT NULL,
  -- The time step of the last code accepted: a code is never accepted twice.
  totp_last_step bigint NOT NULL DEFAULT 0,
  -- Wrong passwords or codes in a row and the end of the current lock, as the wallet's PIN.
  failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  locked_until timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE ops_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  operator_id uuid NOT NULL REFERENCES operators (id),
  -- SHA-256 of the 256-bit random token; the token itself is never stored.
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX ops_sessions_operator_idx ON ops_sessions (operator_id) WHERE revoked_at IS NULL;

-- Every operator action, sign-in included. The database refuses UPDATE, DELETE and TRUNCATE on it
-- (db/functions/ops.sql).
CREATE TABLE ops_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  -- Null only for a sign-in attempt with an unknown e-mail.
  operator_id uuid REFERENCES operators (id),
  operator_email text NOT NULL,
  action text NOT NULL,
  object_type text,
  object_id text,
  -- The person the action concerns, when there is one.
  user_id uuid REFERENCES users (id),
  before jsonb,
  after jsonb
);
CREATE INDEX ops_audit_user_idx ON ops_audit (user_id, id DESC) WHERE user_id IS NOT NULL;
CREATE INDEX ops_audit_operator_idx ON ops_audit (operator_id, id DESC);

-- A correcting transfer proposed by one operator and approved by another; money moves only on approval.
CREATE TABLE ops_refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  transfer_id uuid NOT NULL REFERENCES ledger_transfers (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'approved', 'rejected')),
  proposed_by uuid NOT NULL REFERENCES operators (id),
  proposed_at timestamptz NOT NULL,
  decided_by uuid REFERENCES operators (id),
  decided_at timestamptz,
  -- The correcting transfer: present exactly when approved.
  refund_transfer_id uuid UNIQUE REFERENCES ledger_transfers (id),
  -- Four eyes: an approval is never the proposer's (a proposer may withdraw their own proposal).
  CONSTRAINT ops_refunds_four_eyes CHECK (status <> 'approved' OR decided_by <> proposed_by),
  CONSTRAINT ops_refunds_moved CHECK ((status = 'approved') = (refund_transfer_id IS NOT NULL))
);
CREATE INDEX ops_refunds_transfer_idx ON ops_refunds (transfer_id);
CREATE INDEX ops_refunds_proposed_idx ON ops_refunds (proposed_at) WHERE status = 'proposed';
