-- The support chat (docs/decisions/support.md#support-chat): one conversation per person, reopened when they
-- write again after it was closed; its messages, and the images of a message as the server re-encoded them.
CREATE TABLE support_conversations (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL UNIQUE REFERENCES users (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- The person's oldest message no operator has answered yet; null when answered.
  waiting_since timestamptz,
  assigned_to uuid REFERENCES operators (id),
  last_message_at timestamptz NOT NULL,
  -- Read receipts: the person has read the operators' messages up to here, an operator the person's.
  person_read_at timestamptz,
  operator_read_at timestamptz,
  created_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX support_conversations_queue ON support_conversations (status, waiting_since, id);

CREATE TABLE support_messages (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES support_conversations (id),
  author text NOT NULL CHECK (author IN ('person', 'operator')),
  operator_id uuid REFERENCES operators (id),
  text text NOT NULL,
  -- The operation the person wrote from (a ledger transfer's id, as the history names it).
  operation_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX support_messages_page ON support_messages (conversation_id, created_at DESC, id DESC);

CREATE TABLE support_images (
  message_id uuid NOT NULL REFERENCES support_messages (id),
  position smallint NOT NULL CHECK (position BETWEEN 0 AND 2),
  content_type text NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (message_id, position)
);
