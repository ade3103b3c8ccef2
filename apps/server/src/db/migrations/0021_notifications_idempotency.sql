-- Notifications: created by the server on events (registration, money in, money out, sign-in from a
-- new device). The text is rendered when read, in the reader's language, from a message key and its
-- parameters, so a language switch never leaves old notifications behind.
CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id),
  kind text NOT NULL,
  message_key text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
-- Pages newest first by (created_at, id); the unread count reads the small partial index.
CREATE INDEX notifications_user_page ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read_at IS NULL;

-- The first answer of every money-moving call made with an Idempotency-Key, stored in the same
-- transaction as the money movement: a repeat returns it and moves nothing.
CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL REFERENCES users (id),
  call text NOT NULL,
  key text NOT NULL,
  -- HMAC of the request (keyed with a server secret: requests may carry a PIN or a card number).
  request_hash text NOT NULL,
  answer jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, call, key)
);
