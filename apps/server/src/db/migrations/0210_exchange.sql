-- Exchange between one's own accounts (docs/decisions/exchange.md#exchange-between-ones-own-accounts): a new
-- kind of movement and a system account per currency that takes one leg and gives the other, so each currency
-- still sums to zero; the rates the limits and the quotes read; the quotes a person confirms.
ALTER DOMAIN transfer_kind DROP CONSTRAINT IF EXISTS transfer_kind_check;
ALTER DOMAIN transfer_kind ADD CONSTRAINT transfer_kind_check
  CHECK (VALUE IN ('topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee', 'exchange'));
ALTER DOMAIN ledger_purpose DROP CONSTRAINT IF EXISTS ledger_purpose_check;
ALTER DOMAIN ledger_purpose ADD CONSTRAINT ledger_purpose_check
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments',
    'exchange'));

INSERT INTO ledger_accounts (purpose, currency, created_at)
SELECT 'exchange', currency, now() FROM unnest(ARRAY['RUB', 'USD', 'EUR', 'IDR', 'JPY', 'GBP']) AS currency
ON CONFLICT DO NOTHING;

-- The one place rates live: the rates provider refreshes it (modules/exchange), and the quotes and
-- the limits (db/functions/limits.sql: foreign money counted in roubles) read it. Seeded with the
-- sandbox's fixed rates, so a rate is never missing.
CREATE TABLE exchange_rates (
  currency currency_code PRIMARY KEY,
  -- Roubles for one unit of the currency (the Bank of Russia's Value divided by its Nominal).
  rub_per_unit numeric(24, 10) NOT NULL CHECK (rub_per_unit > 0),
  -- ISO 4217 minor digits, so minor units convert without the app's table.
  exponent smallint NOT NULL CHECK (exponent BETWEEN 0 AND 4),
  source text NOT NULL,
  -- The day the source's rates are for (the Bank of Russia sets one rate a day), and when we read them.
  rates_date date,
  updated_at timestamptz NOT NULL
);
INSERT INTO exchange_rates (currency, rub_per_unit, exponent, source, rates_date, updated_at) VALUES
  ('RUB', 1, 2, 'sandbox', NULL, now()),
  ('USD', 80, 2, 'sandbox', NULL, now()),
  ('EUR', 92, 2, 'sandbox', NULL, now()),
  ('IDR', 0.005, 2, 'sandbox', NULL, now()),
  ('JPY', 0.52, 0, 'sandbox', NULL, now()),
  ('GBP', 105, 2, 'sandbox', NULL, now());

-- A quote holds its figures for 30 seconds; an exchange uses it once (used_at), in the transaction
-- that moves the money.
CREATE TABLE exchange_quotes (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  from_currency currency_code NOT NULL,
  to_currency currency_code NOT NULL,
  -- Minor units: what leaves the from-account (the fee included), the fee, what arrives.
  amount bigint NOT NULL CHECK (amount > 0),
  fee bigint NOT NULL CHECK (fee >= 0 AND fee < amount),
  receive_amount bigint NOT NULL CHECK (receive_amount > 0),
  -- Units of to_currency for one unit of from_currency, before the fee.
  rate numeric(30, 12) NOT NULL CHECK (rate > 0),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (from_currency <> to_currency)
);
CREATE INDEX exchange_quotes_user_idx ON exchange_quotes (user_id, created_at);

-- Money leaving accounts in other currencies now counts toward the monthly limit (limits.sql), and
-- the ledger's writer keeps its figure on those accounts from now on: figures for what left them
-- before are written here from their entries (the month as limits_month reckons it: Moscow time).
WITH counted AS (
  SELECT e.account_id,
    (date_trunc('month', (e.opened_at AT TIME ZONE 'UTC') + interval '3 hours') - interval '3 hours')
      AT TIME ZONE 'UTC' AS month,
    CASE WHEN e.phase = 'void' THEN e.amount ELSE -e.amount END AS delta
  FROM ledger_entries e
  WHERE e.user_id IS NOT NULL AND e.currency <> 'RUB' AND e.amount < 0 AND e.phase IN ('single', 'hold', 'void')
    AND e.kind IN ('withdrawal', 'transfer', 'payment')
), latest AS (
  SELECT account_id, max(month) AS month FROM counted GROUP BY account_id
)
UPDATE ledger_accounts a
SET outgoing_month = l.month,
    outgoing_in_month = (SELECT sum(c.delta) FROM counted c WHERE c.account_id = l.account_id AND c.month = l.month)
FROM latest l
WHERE a.id = l.account_id;
