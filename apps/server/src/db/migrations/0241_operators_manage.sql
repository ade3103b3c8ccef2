-- Operators managed in the back office (docs/decisions/back-office.md#the-back-office-on-the-apps-stack): a
-- new operator sets their own password and TOTP through a one-time link (no credential is ever shown to
-- another operator); a role that approves refunds or manages operators waits for a second administrator.

-- An operator made in the back office has no password nor TOTP until they follow their link.
ALTER TABLE operators ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE operators ALTER COLUMN totp_sealed DROP NOT NULL;
-- A role proposed by one administrator, granted when another confirms it.
ALTER TABLE operators ADD COLUMN pending_role text CHECK (pending_role IN ('admin', 'compliance', 'support', 'finance'));
ALTER TABLE operators ADD COLUMN pending_by uuid REFERENCES operators (id);

-- One-time links: 'credentials' (a new operator sets password and TOTP) or 'totp' (after a reset, the
-- operator sets a new TOTP with their password). Only the token's SHA-256 is kept; the TOTP secret
-- offered by the link is sealed as the operators' own (OPS_KEY) until the operator proves it with a code.
CREATE TABLE ops_setup_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  operator_id uuid NOT NULL REFERENCES operators (id),
  purpose text NOT NULL CHECK (purpose IN ('credentials', 'totp')),
  token_hash bytea NOT NULL UNIQUE,
  totp_sealed bytea,
  created_by uuid REFERENCES operators (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX ops_setup_links_operator_idx ON ops_setup_links (operator_id) WHERE used_at IS NULL;
-- The back office's lists page by (created_at, id), newest first.
CREATE INDEX operators_created_idx ON operators (created_at DESC, id DESC);
