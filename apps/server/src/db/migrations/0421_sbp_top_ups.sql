-- Top-ups by СБП (docs/decisions/sbp.md#top-up-by-sbp): an order says how the person pays, so a retried
-- payment creation asks the provider for the same method; the sandbox's payment page shows its СБП page.
ALTER TABLE topup_orders ADD COLUMN method text NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'sbp'));
ALTER TABLE sandbox_payments ADD COLUMN method text NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'sbp'));
