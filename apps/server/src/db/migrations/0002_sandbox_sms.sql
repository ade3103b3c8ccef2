-- The sandbox SMS provider's outbox: the texts a phone would have received, readable at /sandbox/sms.
-- It exists for the sandbox only (WALLET_ENV=production refuses sandbox providers); shared by every
-- server instance on this database.
CREATE TABLE sandbox_sms_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  phone text NOT NULL,
  text text NOT NULL,
  code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_sms_outbox_phone_idx ON sandbox_sms_outbox (phone, id DESC);
