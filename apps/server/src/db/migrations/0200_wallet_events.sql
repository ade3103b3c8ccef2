-- The live wallet (docs/decisions.md section 11). Every change a person's open apps must hear of is
-- an event row, written in the transaction that made the change (db/functions/wallet_events.sql), so
-- a rolled-back change leaves none. Events are numbered per person without gaps, in commit order (the
-- head row stays locked until commit): the stream's Last-Event-ID is that number. Rows are kept a
-- while for resuming (pruned after WALLET_EVENTS_KEEP), never read as history.
CREATE TABLE wallet_event_heads (
  user_id uuid PRIMARY KEY,
  seq bigint NOT NULL
);

CREATE TABLE wallet_events (
  user_id uuid NOT NULL,
  seq bigint NOT NULL,
  -- 'entry': a ledger entry of the person (ref: its id); 'notification': a stored notification (ref: its id).
  kind text NOT NULL,
  ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Set when the person had a push subscription at the time: one instance claims it and sends it.
  push_due boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, seq)
);
CREATE INDEX wallet_events_created ON wallet_events (created_at);
CREATE INDEX wallet_events_push_due ON wallet_events (user_id) WHERE push_due;

-- Who is listening: an instance holding a person's open streams keeps a row here (refreshed every
-- minute, gone when the streams close or, for an instance that died, after a few minutes). A person's
-- events send NOTIFY only while someone listens or a push is due: NOTIFY serialises the commits of
-- the transactions that send it (PostgreSQL holds a database-wide lock from before to after their
-- commit), so money nobody watches must not pay for it (docs/performance.md "The live wallet").
CREATE TABLE wallet_event_listeners (
  user_id uuid NOT NULL,
  instance uuid NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, instance)
);
CREATE INDEX wallet_event_listeners_seen ON wallet_event_listeners (seen_at);

-- Web Push subscriptions of a browser (one row per endpoint), with the language its pushes speak.
CREATE TABLE push_subscriptions (
  endpoint text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  p256dh text NOT NULL,
  auth text NOT NULL,
  language text NOT NULL DEFAULT 'ru',
  created_at timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

-- Which pushes a person gets; money out is always pushed (docs/decisions.md section 11).
CREATE TABLE notification_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  push_money_in boolean NOT NULL DEFAULT true,
  push_security boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);
