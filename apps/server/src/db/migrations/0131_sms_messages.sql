-- Delivery status of every text sent through a real SMS gateway (providers/sms/gateway.ts).
-- The text itself is never kept (it may hold a code): only who, what kind, and how it went.
CREATE TABLE sms_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider text NOT NULL,
  phone text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('code', 'notice')),
  -- sending: not yet accepted by the gateway; sent: accepted, not yet reported delivered;
  -- delivered and failed are final.
  status text NOT NULL CHECK (status IN ('sending', 'sent', 'delivered', 'failed')),
  provider_message_id text,
  -- The gateway's own status code or error, as it answered.
  provider_status text,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX sms_messages_phone_idx ON sms_messages (phone, created_at DESC);
CREATE INDEX sms_messages_open_idx ON sms_messages (provider, provider_message_id) WHERE status = 'sent';
