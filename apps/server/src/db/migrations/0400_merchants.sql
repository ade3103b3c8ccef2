-- Merchants (docs/decisions/merchants.md#merchants): a person's merchant profile, decided by an operator;
-- its money is a ledger account of its own, purpose 'merchant', its owner named by the merchant's row (not by
-- user_id, so the person's wallet, limits and history never take it for theirs, as a savings goal's).
ALTER DOMAIN ledger_purpose DROP CONSTRAINT IF EXISTS ledger_purpose_check;
ALTER DOMAIN ledger_purpose ADD CONSTRAINT ledger_purpose_check
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments',
    'exchange', 'antifraud_hold', 'goal', 'merchant'));
-- Many merchant accounts share a currency; the system accounts stay one per purpose and currency.
DROP INDEX ledger_accounts_system;
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (purpose, currency)
  WHERE user_id IS NULL AND purpose <> 'goal' AND purpose <> 'merchant';
-- A merchant's money never goes below zero: refunds and settlements take only what it holds.
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_merchant_not_negative
  CHECK (purpose <> 'merchant' OR balance - pending_debits >= 0);

CREATE TABLE merchants (
  id uuid PRIMARY KEY,
  -- One merchant per person.
  user_id uuid NOT NULL UNIQUE REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('self_employed', 'company')),
  name text NOT NULL,
  inn text NOT NULL,
  mcc text NOT NULL,
  site_url text NOT NULL,
  bank_bic text NOT NULL,
  bank_account text NOT NULL,
  notification_url text,
  status text NOT NULL CHECK (status IN ('pending', 'active', 'rejected')),
  reason text,
  decided_by text,
  decided_at timestamptz,
  account_id uuid NOT NULL UNIQUE,
  -- The notifications' HMAC key, sealed (crypto/sealed.ts): the merchant reads it back, so it is not hashed.
  webhook_secret bytea NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX merchants_queue ON merchants (status, created_at, id);

-- The merchant API's secret keys, kept as an HMAC only; a revoked key stays for the record.
CREATE TABLE merchant_keys (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  name text NOT NULL,
  secret_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX merchant_keys_merchant ON merchant_keys (merchant_id) WHERE revoked_at IS NULL;

-- A merchant's payment: made by its API (or by a payer at a static QR), paid at most once under its row's
-- lock by the payer's money call.
CREATE TABLE merchant_payments (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  description text NOT NULL,
  order_id text,
  return_url text,
  metadata jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'canceled')),
  -- Who paid it; a static QR's payment names its payer from the start and is theirs alone to see and pay.
  payer_id uuid,
  static boolean NOT NULL DEFAULT false,
  transfer_id uuid,
  refunded bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= amount),
  -- The merchant API's Idempotency-Key of the create, and its request's fingerprint.
  idempotency_key text,
  request_hash text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  paid_at timestamptz,
  canceled_at timestamptz,
  CONSTRAINT merchant_payments_key UNIQUE (merchant_id, idempotency_key)
);
CREATE INDEX merchant_payments_page ON merchant_payments (merchant_id, created_at, id);

-- A merchant's refund of a payment, full or partial: a money call whose door (merchants.sql) takes it from
-- the merchant's account to the payer's at once, never above what is left of the payment.
CREATE TABLE merchant_refunds (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  payment_id uuid NOT NULL REFERENCES merchant_payments (id),
  amount bigint NOT NULL CHECK (amount > 0),
  reason text,
  transfer_id uuid NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX merchant_refunds_payment ON merchant_refunds (payment_id, created_at);

-- A signed notification to a merchant's URL (payment.succeeded, payment.canceled, refund.succeeded): written
-- with its event's change, delivered by the job system with retries, each attempt's answer kept for the
-- merchant's delivery log.
CREATE TABLE merchant_notifications (
  id uuid PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  event text NOT NULL CHECK (event IN ('payment.succeeded', 'payment.canceled', 'refund.succeeded')),
  object jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  last_attempt_at timestamptz,
  delivered_at timestamptz
);
CREATE INDEX merchant_notifications_log ON merchant_notifications (merchant_id, created_at, id);
CREATE INDEX merchant_notifications_pending ON merchant_notifications (created_at) WHERE status = 'pending';
