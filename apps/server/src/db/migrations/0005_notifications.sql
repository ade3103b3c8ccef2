-- Notifications of events other than money (registration, a sign-in from a new device...). The text
-- is rendered when read, in the reader's language, from a message key and its parameters.
-- Money in and money out are not rows here: they are read from the ledger's entries (see
-- modules/notifications/service.ts), and their read marks are rows of notification_reads.
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

CREATE TABLE notification_reads (
  user_id uuid NOT NULL REFERENCES users (id),
  entry_id bigint NOT NULL REFERENCES ledger_entries (id),
  read_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, entry_id)
);
