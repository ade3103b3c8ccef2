-- The live wallet (docs/decisions/live-wallet.md#the-live-wallet). Money needs no table of its own: a
-- person's ledger entries are the events, numbered per account by account_version (gap-free and in commit
-- order under the account's lock), so a stream's place is one version per account and never expires.
-- Stored notifications (rare) are numbered events here, per person without gaps, in commit order (the
-- head row stays locked until commit), written by a trigger (db/functions/wallet_events.sql) in the
-- notification's transaction. Kept a while for resuming (pruned after 15 minutes), never read as history.
CREATE TABLE wallet_event_heads (
  user_id uuid PRIMARY KEY,
  seq bigint NOT NULL
);

CREATE TABLE wallet_events (
  user_id uuid NOT NULL,
  seq bigint NOT NULL,
  -- The stored notification's id.
  ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, seq)
);
CREATE INDEX wallet_events_created ON wallet_events (created_at);

-- Pushes to send (money in and out, a new sign-in, a PIN lock), written only for people with a push
-- subscription; one instance claims each row by deleting it (modules/push).
CREATE TABLE push_due (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL,
  -- 'entry' (ref: a ledger entry's id) or 'notification' (ref: a stored notification's id).
  kind text NOT NULL,
  ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_due_user ON push_due (user_id);

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

-- Which pushes a person gets; money out is always pushed (docs/decisions/live-wallet.md#the-live-wallet).
CREATE TABLE notification_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  push_money_in boolean NOT NULL DEFAULT true,
  push_security boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);
