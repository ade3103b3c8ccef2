-- Managing money (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): categories of
-- operations, monthly budgets with their notices, and savings goals ('Копилка') with their own ledger
-- accounts.

-- A person's own category names, beside the fixed list (db/functions/categories.sql).
CREATE TABLE custom_categories (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX custom_categories_name ON custom_categories (user_id, lower(name));

-- The person's choice for one of their operations, and the choice remembered for its payee: the
-- operations to that payee made after it take it (categories.sql decides which applies).
CREATE TABLE operation_categories (
  user_id uuid NOT NULL REFERENCES users (id),
  transfer_id uuid NOT NULL,
  category text NOT NULL,
  chosen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, transfer_id)
);
CREATE TABLE payee_categories (
  user_id uuid NOT NULL REFERENCES users (id),
  -- 'person:<user id>' or 'payout:<account or masked card>' (category_payee in categories.sql).
  payee text NOT NULL,
  category text NOT NULL,
  chosen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, payee)
);

-- A monthly budget for one category, or for all spending (category null), in one currency.
CREATE TABLE budgets (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  category text,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX budgets_user_category ON budgets (user_id, coalesce(category, ''));
-- One row per budget, Moscow month and threshold: the notice is told once, whoever commits first.
CREATE TABLE budget_notices (
  budget_id uuid NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
  month timestamptz NOT NULL,
  threshold smallint NOT NULL CHECK (threshold IN (80, 100)),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (budget_id, month, threshold)
);

-- A goal's money is a ledger account of its own: purpose 'goal', its owner named by the goal's row
-- (not by user_id, so the wallet's accounts, history and payment door never take it for a spendable
-- account); moves between it and the person's accounts are of kind 'savings'.
ALTER DOMAIN transfer_kind DROP CONSTRAINT IF EXISTS transfer_kind_check;
ALTER DOMAIN transfer_kind ADD CONSTRAINT transfer_kind_check
  CHECK (VALUE IN ('topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee', 'exchange', 'savings'));
ALTER DOMAIN ledger_purpose DROP CONSTRAINT IF EXISTS ledger_purpose_check;
ALTER DOMAIN ledger_purpose ADD CONSTRAINT ledger_purpose_check
  CHECK (VALUE IN ('user', 'topup_clearing', 'payout_clearing', 'external_payments', 'fees', 'adjustments',
    'exchange', 'antifraud_hold', 'goal'));
-- Many goal accounts share a currency; the system accounts stay one per purpose and currency.
DROP INDEX ledger_accounts_system;
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (purpose, currency)
  WHERE user_id IS NULL AND purpose <> 'goal';
-- A goal's money never goes below zero, as a person's account's never does.
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_goal_not_negative
  CHECK (purpose <> 'goal' OR (balance >= 0 AND pending_debits = 0));

CREATE TABLE savings_goals (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  account_id uuid NOT NULL UNIQUE REFERENCES ledger_accounts (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  target_amount bigint NOT NULL CHECK (target_amount > 0),
  currency text NOT NULL,
  target_date date,
  -- Each payment in the goal's currency is rounded up to this many whole units (0: none); at most one
  -- goal of a person rounds up.
  round_up smallint NOT NULL DEFAULT 0 CHECK (round_up IN (0, 10, 50, 100)),
  created_at timestamptz NOT NULL,
  -- A deleted goal's money has gone back to the person; the row and its account stay for the ledger.
  closed_at timestamptz
);
CREATE INDEX savings_goals_user ON savings_goals (user_id) WHERE closed_at IS NULL;
CREATE UNIQUE INDEX savings_goals_round_up ON savings_goals (user_id) WHERE round_up > 0 AND closed_at IS NULL;
