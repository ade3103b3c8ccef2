-- Payment requests, templates and scheduled transfers
-- (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers).

-- A request to pay: to one person (by phone), to whoever opens its link, or one share of a split
-- (shares of one split have the same group_id). 'expired' is never stored: a pending request past
-- expires_at reads as expired. The link's token is kept only as its SHA-256.
CREATE TABLE payment_requests (
  id uuid PRIMARY KEY,
  group_id uuid NOT NULL,
  requester_id uuid NOT NULL REFERENCES users (id),
  -- The person asked to pay; null for a link request, which anyone signed in may pay.
  payer_id uuid REFERENCES users (id),
  -- Who paid it, once.
  paid_by uuid REFERENCES users (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  comment text,
  token_hash bytea NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'declined', 'cancelled')),
  -- The ledger transfer that paid it, once.
  transfer_id uuid UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  closed_at timestamptz,
  CHECK ((status = 'paid') = (transfer_id IS NOT NULL AND paid_by IS NOT NULL))
);
CREATE INDEX payment_requests_requester ON payment_requests (requester_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_payer ON payment_requests (payer_id, created_at DESC, id DESC);

CREATE TABLE payment_templates (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL,
  phone text NOT NULL,
  amount bigint CHECK (amount > 0),
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX payment_templates_user ON payment_templates (user_id, created_at DESC);

-- A standing order confirmed with the PIN: it authorises its own runs (ledger_pay, payments.sql).
CREATE TABLE scheduled_transfers (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  payee_id uuid NOT NULL REFERENCES users (id),
  phone text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  period text NOT NULL CHECK (period IN ('week', 'month')),
  first_run_at timestamptz NOT NULL,
  ends_at timestamptz,
  -- The period whose run is next (0 for first_run_at) and its time; null once ended.
  next_index integer NOT NULL DEFAULT 0,
  next_run_at timestamptz,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'ended', 'deleted')),
  created_at timestamptz NOT NULL
);
CREATE INDEX scheduled_transfers_user ON scheduled_transfers (user_id, created_at DESC);
CREATE INDEX scheduled_transfers_due ON scheduled_transfers (next_run_at) WHERE status = 'active';

-- One row per schedule and period, written in the run's transaction: a period runs at most once.
CREATE TABLE schedule_runs (
  schedule_id uuid NOT NULL REFERENCES scheduled_transfers (id),
  period_index integer NOT NULL,
  run_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('paid', 'skipped')),
  reason text,
  transfer_id uuid,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (schedule_id, period_index)
);
-- The reminder of a period, sent once.
CREATE TABLE schedule_reminders (
  schedule_id uuid NOT NULL REFERENCES scheduled_transfers (id),
  period_index integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (schedule_id, period_index)
);
