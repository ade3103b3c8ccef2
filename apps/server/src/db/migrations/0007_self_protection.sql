-- Self-protection: a frozen wallet sends nothing out (db/functions/payments.sql refuses it), and
-- reports of operations a person says were not theirs, for the operators.
ALTER TABLE users
  ADD COLUMN frozen_at timestamptz,
  -- Who froze it: the person ('self', lifted with an SMS code and the PIN) or an operator.
  ADD COLUMN frozen_by text CHECK (frozen_by IN ('self', 'operator')),
  ADD CONSTRAINT users_frozen CHECK ((frozen_at IS NULL) = (frozen_by IS NULL));

CREATE TABLE operation_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id),
  transfer_id uuid NOT NULL REFERENCES ledger_transfers (id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at timestamptz NOT NULL,
  -- One report per person and operation: reporting again answers the first.
  UNIQUE (user_id, transfer_id)
);
CREATE INDEX operation_reports_open_idx ON operation_reports (created_at) WHERE status = 'open';
