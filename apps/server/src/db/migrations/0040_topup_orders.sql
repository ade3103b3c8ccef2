-- Top-up orders (issue 5): one row per POST /v2/wallet/top-up, paid on the payments provider's page.
-- 'pending' until the provider reports the outcome; 'complete' once the money is credited through the
-- ledger (in the same transaction as this status change, so the two never disagree); 'failed' when the
-- payment was canceled or never created. A success reported after a failure still completes the order
-- (the card was charged); nothing ever leaves 'complete'.
CREATE TABLE topup_orders (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'complete', 'failed')),
  -- The provider that takes the payment and its identifier there (set once it has answered).
  provider text NOT NULL,
  provider_payment_id text,
  payment_url text,
  -- The ledger transfer that credited the order: present exactly when the order is complete.
  transfer_id uuid UNIQUE REFERENCES ledger_transfers (id),
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  CONSTRAINT topup_orders_credited CHECK ((status = 'complete') = (transfer_id IS NOT NULL)),
  CONSTRAINT topup_orders_finished CHECK ((status = 'pending') = (finished_at IS NULL))
);
CREATE UNIQUE INDEX topup_orders_provider_payment_idx ON topup_orders (provider, provider_payment_id);
-- Pending orders reserve room under the balance limit.
CREATE INDEX topup_orders_user_pending_idx ON topup_orders (user_id, created_at) WHERE status = 'pending';
