-- Savings goals ('Копилка', docs/decisions.md section 22): a goal's money is a ledger account of its own
-- (purpose 'goal'), owned by the person through the goal's row. Money moves between it and the
-- person's account in the goal's currency as kind 'savings': one's own money, so never outgoing for
-- the monthly limit, while limits_holdings (limits.sql) counts the goal toward the balance cap.
--   goal_move         a deposit, a withdrawal or a goal's closing, confirmed by the person (the door
--                     of the money-call pipeline's 'goal' calls)
--   goals_round_up    a payment's round-up, in ledger_pay's statement (payments.sql)
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

CREATE OR REPLACE FUNCTION goal_move(
  movement_id uuid,
  person uuid,
  goal_id uuid,
  -- 'deposit' (account -> goal), 'withdraw' (goal -> account), 'close' (all of it back, the goal closed)
  direction text,
  amount bigint,
  description jsonb,
  at timestamptz,
  pin_proof bytea,
  call_name text,
  call_key text,
  request_hash text,
  answer jsonb
) RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  goal savings_goals;
  proven boolean;
  account ledger_accounts;
  saved ledger_accounts;
  first record;
BEGIN
  SELECT pin_proven(u, pin_proof) INTO proven FROM users u WHERE u.id = person FOR NO KEY UPDATE;
  SELECT * INTO goal FROM savings_goals g WHERE g.id = goal_id AND g.user_id = person FOR UPDATE;
  IF goal.id IS NOT NULL THEN
    SELECT * INTO account FROM ledger_accounts a
    WHERE a.user_id = person AND a.purpose = 'user' AND a.currency = goal.currency FOR NO KEY UPDATE;
    SELECT * INTO saved FROM ledger_accounts a WHERE a.id = goal.account_id FOR NO KEY UPDATE;
  END IF;
  -- A closing only returns the goal's money to its owner: the one move that asks no PIN.
  IF proven IS NOT TRUE AND NOT (pin_proof IS NULL AND direction = 'close') THEN
    refusal := jsonb_build_object('rule', 'pin');
  ELSIF goal.id IS NULL OR goal.closed_at IS NOT NULL THEN
    refusal := jsonb_build_object('rule', 'missing');
  ELSIF account.id IS NULL THEN
    refusal := jsonb_build_object('rule', 'account_missing');
  END IF;
  IF refusal IS NOT NULL THEN
    outcome := 'refused';
    problems := jsonb_build_array(refusal);
    RETURN NEXT;
    RETURN;
  END IF;
  IF call_key IS NOT NULL THEN
    SELECT * INTO first FROM idempotency_claim(person, call_name, call_key, request_hash, answer, at);
    IF NOT first.claimed THEN
      outcome := 'repeated';
      first_request_hash := first.first_request_hash;
      first_answer := first.first_answer;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  IF direction = 'close' THEN
    amount := ledger_available(saved);
    UPDATE savings_goals g SET closed_at = at, round_up = 0 WHERE g.id = goal.id;
  ELSIF ledger_available(CASE WHEN direction = 'deposit' THEN account ELSE saved END) < amount THEN
    refusal := jsonb_build_object('rule', 'insufficient_funds');
    IF call_key IS NOT NULL THEN PERFORM idempotency_release(person, call_name, call_key); END IF;
    outcome := 'refused';
    problems := jsonb_build_array(refusal);
    RETURN NEXT;
    RETURN;
  END IF;
  IF amount > 0 AND NOT ledger_move(movement_id,
      CASE WHEN direction = 'deposit' THEN account.id ELSE saved.id END,
      CASE WHEN direction = 'deposit' THEN saved.id ELSE account.id END,
      amount, goal.currency, 'savings', 'posted', false, 'savings:' || movement_id, 'goal', goal.id::text,
      description, at, at, 'single', at) THEN
    RAISE EXCEPTION 'goal_move: the movement % exists already', movement_id;
  END IF;
  outcome := 'created';
  RETURN NEXT;
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
        PERFORM ledger_move(gen_random_uuid(), debit_id, goal.account_id, extra, currency, 'savings', 'posted', false,
          'round-up:' || payment_id, 'goal_round_up', goal.id::text,
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
