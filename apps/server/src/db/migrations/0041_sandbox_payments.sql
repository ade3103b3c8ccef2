-- The sandbox payments provider's own payments (decisions.md section 5): what a real provider keeps on
-- its side. One per top-up order (the order id is the idempotence key). Of the card only the last four
-- digits are kept.
CREATE TABLE sandbox_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  description text NOT NULL,
  return_url text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'canceled')),
  card_last4 text CHECK (card_last4 ~ '^\d{4}$'),
  cancellation_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
