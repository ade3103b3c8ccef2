-- Savings goals ('Копилка', docs/decisions/managing-money.md#managing-money-categories-budgets-goals): a
-- goal's money is a ledger account of its own (purpose 'goal'), owned by the person through the goal's row.
-- Money moves between it and the person's account in the goal's currency as kind 'savings': one's own money,
-- so never outgoing for the monthly limit, while limits_holdings (limits.sql) counts the goal toward the
-- balance cap.
--   (a deposit, a withdrawal or a goal's closing is the person's door ledger_goal (payments.sql),
--    so it shares the PIN's proof, the key and the answer with every money call)
--   goals_after_payment    a payment's round-up, in ledger_pay's statement (payments.sql)
-- Lock order as every door's: the person's row, their account, then the goal's account.

-- A new goal and its account, in the goal's currency.
CREATE OR REPLACE FUNCTION goal_open(
  goal_id uuid, person uuid, name text, target bigint, currency text, target_date date, at timestamptz
) RETURNS void LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  account_id uuid;
BEGIN
  INSERT INTO ledger_accounts (purpose, currency, created_at) VALUES ('goal', currency, at) RETURNING id INTO account_id;
  INSERT INTO savings_goals (id, user_id, account_id, name, target_amount, currency, target_date, created_at)
  VALUES (goal_id, person, account_id, name, target, currency, target_date, at);
END
$$;

-- A payment just written by ledger_pay (its accounts locked there): the person's rounding goal in the
-- payment's currency takes the difference up to the next whole `round_up` units, when the account
-- still has it. Then the person's budgets hear of the spending (budgets.sql). A refused payment never
-- reaches here, so it rounds nothing up.
CREATE OR REPLACE FUNCTION goals_after_payment(
  person uuid, payment_id uuid, debit_id uuid, currency text, amount bigint, kind text, at timestamptz
) RETURNS void LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  goal savings_goals;
  account ledger_accounts;
  step bigint;
  extra bigint;
BEGIN
  IF kind IN ('payment', 'transfer') THEN
    SELECT * INTO goal FROM savings_goals g
    WHERE g.user_id = person AND g.round_up > 0 AND g.closed_at IS NULL AND g.currency = currency;
    IF goal.id IS NOT NULL THEN
      step := goal.round_up::bigint * power(10, (SELECT r.exponent FROM exchange_rates r WHERE r.currency = currency))::bigint;
      extra := (step - amount % step) % step;
      SELECT * INTO account FROM ledger_accounts a WHERE a.id = debit_id;
      IF extra > 0 AND ledger_available(account) >= extra THEN
        PERFORM 1 FROM ledger_accounts a WHERE a.id = goal.account_id FOR NO KEY UPDATE;
        PERFORM ledger_move(ledger_key_id('round-up:' || payment_id), debit_id, goal.account_id, extra, currency, 'savings', 'posted', false,
          'goal_round_up', goal.id::text,
          jsonb_build_object('debit', jsonb_build_object('ru', 'Округление в копилку «' || goal.name || '»',
            'en', 'Round-up to the goal “' || goal.name || '”'),
            'credit', jsonb_build_object('ru', 'Округление', 'en', 'Round-up')), at, at, 'single', at);
      END IF;
    END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM budgets b WHERE b.user_id = person) THEN
    PERFORM budgets_after_spend(person, at);
  END IF;
END
$$;
