-- A person's money call: the one door for money a person moves (docs/decisions.md section 16), every
-- kind through the same prologue and epilogue:
--   to another person          a transfer, a QR payment to a wallet user, a request's payment, a
--                              schedule's run (payee set)
--   out of the wallet          a withdrawal, a QR payment to a bank account: held toward the currency's
--                              `system_account` (payout clearing), then settled (ledger_settle)
--   between one's own accounts an exchange (quote_id set): the quote's figures move as two transfers
--                              through the currencies' 'exchange' system accounts; a savings goal's
--                              deposit (a regular deposit's run too), withdrawal or closing (goal_id
--                              set, goals.sql): kind 'savings' between the account and the goal's,
--                              neither outgoing nor over the cap
-- One statement, in this order:
--   1. the prologue: the people's rows, each with their accounts in the call's currencies, locked in
--      user id order (then system accounts), so two calls of one person are decided one after the
--      other and opposite transfers never deadlock; the PIN proof (pin.sql decides it; a refusal
--      'pin' lets modules/auth/pin.ts check and count the PIN); without a proof only a run of the
--      payer's active standing order passes; the Idempotency-Key claimed with the call's answer
--      (idempotency.sql): a used key answers the first call's fingerprint and answer, before any rule;
--   2. the rules: a closed wallet on either side (nothing moves once a wallet is closed: a release, a
--      schedule's run, a request's payment), an exchange's quote, a frozen wallet, limits.sql's (the level, the monthly limit,
--      the payee's balance cap or the exchange's), the money available (ledger_available);
--   3. the epilogue: a refusal gives the key back and writes nothing; otherwise the movement is
--      written by ledger_move and the answer, stored with the key, is the call's.
-- With `check_only` (the answers before the PIN) there is no PIN and no key: every rule is asked,
-- every refusal listed, nothing written.
-- Answers (outcome, refusal, problems, first_request_hash, first_answer), outcome one of
--   created | repeated (the first call's fingerprint and answer) | refused (refusal names the first
--   rule, problems lists every one) | allowed (check_only)
-- A payee (or the exchanging person) with no account in the currency gets one when the money moves
-- (docs/decisions.md section 15); a refused call opens nothing.

DROP FUNCTION IF EXISTS ledger_exchange(uuid, uuid, uuid, uuid, jsonb, timestamptz, jsonb, bytea, text, text, text, jsonb);
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb, boolean);
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb, boolean, uuid, uuid);

CREATE OR REPLACE FUNCTION ledger_pay(
  movement_id uuid,
  payer uuid,
  -- The person paid; null when the money goes to the currency's `system_account`.
  payee uuid,
  system_account text,
  currency text,
  amount bigint,
  kind text,
  hold boolean,
  reference_type text,
  reference_id text,
  description jsonb,
  at timestamptz,
  rules jsonb,
  pin_proof bytea,
  call_name text,
  call_key text,
  request_hash text,
  answer jsonb,
  check_only boolean DEFAULT false,
  -- An exchange: the quote (its currencies and amounts replace currency and amount) and the id of
  -- its second transfer, into the person's account in the quote's to-currency.
  quote_id uuid DEFAULT NULL,
  in_id uuid DEFAULT NULL,
  -- A savings goal's move (docs/decisions.md section 22): 'deposit', 'withdraw' or 'close' (all of it
  -- back and the goal closed, the one move that asks no PIN: only the owner's money returns).
  goal_id uuid DEFAULT NULL,
  goal_direction text DEFAULT NULL
) RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  person record;
  quote exchange_quotes;
  to_currency text;
  payer_level text;
  payee_level text;
  frozen boolean := false;
  payer_closed boolean := false;
  payee_closed boolean := false;
  proven boolean := false;
  debit ledger_accounts;
  credit ledger_accounts;
  sink ledger_accounts;
  source ledger_accounts;
  claimed boolean;
  saves boolean;
  found_problem jsonb;
  sent bigint;
  held bigint;
  goal savings_goals;
  saved ledger_accounts;
BEGIN
  -- 1. The prologue.
  IF quote_id IS NOT NULL THEN
    -- The currencies are read first to know which accounts to lock; the quote is read again after.
    SELECT q.from_currency, q.to_currency INTO currency, to_currency FROM exchange_quotes q
    WHERE q.id = quote_id AND q.user_id = payer;
  ELSIF goal_id IS NOT NULL THEN
    SELECT g.currency INTO currency FROM savings_goals g WHERE g.id = goal_id AND g.user_id = payer;
  END IF;
  FOR person IN SELECT u.id, u.identification_level AS level, u.frozen_at IS NOT NULL AS frozen,
      u.closed_at IS NOT NULL AS closed, pin_proven(u, pin_proof) AS proven, a AS account
    FROM users u JOIN ledger_accounts a ON a.user_id = u.id AND a.currency IN (currency, to_currency)
    WHERE u.id IN (payer, payee) ORDER BY u.id, a.id FOR NO KEY UPDATE OF u, a LOOP
    IF person.id = payer THEN
      payer_level := person.level;
      frozen := person.frozen;
      payer_closed := person.closed;
      proven := person.proven;
      IF (person.account).currency = currency THEN debit := person.account; ELSE credit := person.account; END IF;
    ELSE
      payee_level := person.level;
      payee_closed := person.closed;
      credit := person.account;
    END IF;
  END LOOP;
  -- Rarely: a person without an account in the currency is locked alone (then the system accounts).
  IF payer_level IS NULL AND (quote_id IS NOT NULL OR goal_id IS NOT NULL) THEN
    SELECT u.identification_level, u.frozen_at IS NOT NULL, u.closed_at IS NOT NULL, pin_proven(u, pin_proof)
    INTO payer_level, frozen, payer_closed, proven FROM users u WHERE u.id = payer FOR NO KEY UPDATE;
  END IF;
  IF payee IS NOT NULL AND credit.id IS NULL THEN
    SELECT u.identification_level, u.closed_at IS NOT NULL INTO payee_level, payee_closed
    FROM users u WHERE u.id = payee FOR NO KEY UPDATE;
    IF FOUND THEN
      credit.user_id := payee;
      credit.currency := currency;
    END IF;
  END IF;
  IF payee IS NULL AND quote_id IS NULL AND goal_id IS NULL THEN
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = system_account AND a.currency = currency FOR NO KEY UPDATE;
  END IF;

  -- (A goal that is not the payer's is refused as missing, below, after the key.)
  IF payer_level IS NULL OR (debit.id IS NULL AND quote_id IS NULL AND (goal_id IS NULL OR currency IS NOT NULL)) THEN
    refusal := jsonb_build_object('rule', 'account_missing');
  ELSIF NOT check_only AND proven IS NOT TRUE THEN
    -- Without a PIN only a goal's closing (its money back to its owner, section 22), or a run of the
    -- payer's active standing order, which the PIN confirmed: to its payee (a run the antifraud check
    -- held goes to the 'antifraud_hold' account instead, section 21: its release is the exception
    -- below), or into its goal (a regular deposit, section 22). (Asked apart: a condition with a
    -- subquery is a whole query for PL/pgSQL.)
    IF NOT (pin_proof IS NULL AND goal_direction IS NOT DISTINCT FROM 'close')
       AND NOT (pin_proof IS NULL AND reference_type = 'scheduled_transfer'
        AND EXISTS (SELECT 1 FROM scheduled_transfers s WHERE s.id::text = reference_id AND s.user_id = payer
          AND (s.payee_id = payee
            OR (payee IS NULL AND s.payee_id IS NOT NULL AND system_account = 'antifraud_hold')
            OR (s.goal_id = goal_id AND goal_direction = 'deposit'))
          AND s.amount = amount AND s.currency = currency AND s.status = 'active'))
       -- Or the release of the payer's held operation, which their PIN confirmed when it was held and
       -- the person, their trusted person or an operator has now let go (docs/decisions.md section 21).
       AND NOT (pin_proof IS NULL AND EXISTS (SELECT 1 FROM money_holds h WHERE h.movement_id = movement_id
          AND h.user_id = payer AND h.status = 'releasing' AND h.amount = amount AND h.currency = currency)) THEN
      refusal := jsonb_build_object('rule', 'pin');
    END IF;
  END IF;
  IF refusal IS NOT NULL THEN
    outcome := 'refused';
    problems := jsonb_build_array(refusal);
    RETURN NEXT;
    RETURN;
  END IF;
  -- One statement once the locks are held (its snapshot sees every call that held them before): the
  -- Idempotency-Key claimed with the call's answer (idempotency.sql), before the rules, since money
  -- calls succeed far more often than they are refused or repeated; the figures the limits read (what
  -- the payer sent this month, what the receiving person holds); and whether the payer saves
  -- (goals.sql). One statement for the three, since each statement of PL/pgSQL starts an executor
  -- (docs/performance.md).
  SELECT c.claimed, c.first_request_hash, c.first_answer, f.sent, h.held,
    EXISTS (SELECT 1 FROM savings_goals g WHERE g.user_id = payer AND g.round_up > 0 AND g.closed_at IS NULL)
      OR EXISTS (SELECT 1 FROM budgets b WHERE b.user_id = payer)
  INTO claimed, first_request_hash, first_answer, sent, held, saves
  FROM limits_sent_in_month_total(payer, at) f, limits_holdings(coalesce(payee, payer), at) h,
    idempotency_claim(payer, call_name, CASE WHEN NOT check_only THEN call_key END, request_hash, answer, at) c;
  IF claimed IS FALSE THEN
    outcome := 'repeated';
    RETURN NEXT;
    RETURN;
  END IF;

  -- 2. The rules.
  problems := '[]'::jsonb;
  -- A closed wallet's money stays where it is, whoever lets it go (docs/security.md, 'Antifraud and
  -- the trusted person: which paths are judged'); a closed payee is only 'cannot accept now'.
  IF payer_closed THEN
    problems := problems || jsonb_build_object('rule', 'wallet_closed');
  END IF;
  IF payee IS NOT NULL AND payee_closed THEN
    problems := problems || jsonb_build_object('rule', 'recipient_closed');
  END IF;
  IF goal_id IS NOT NULL THEN
    -- One's own money between one's own accounts: no limit and no freeze apply, only the goal and the
    -- money on the side it leaves. The goal's account is the person's, locked after their account.
    SELECT * INTO goal FROM savings_goals g WHERE g.id = goal_id AND g.user_id = payer FOR UPDATE;
    IF goal.id IS NULL OR goal.closed_at IS NOT NULL THEN
      problems := problems || jsonb_build_object('rule', 'missing');
    ELSE
      SELECT * INTO saved FROM ledger_accounts a WHERE a.id = goal.account_id FOR NO KEY UPDATE;
      IF goal_direction = 'close' THEN
        amount := ledger_available(saved);
      ELSIF ledger_available(CASE WHEN goal_direction = 'deposit' THEN debit ELSE saved END) < amount THEN
        problems := problems || jsonb_build_object('rule', 'insufficient_funds');
      END IF;
    END IF;
  ELSE
  IF quote_id IS NOT NULL THEN
    SELECT * INTO quote FROM exchange_quotes q WHERE q.id = quote_id AND q.user_id = payer FOR UPDATE;
    IF quote.id IS NULL OR quote.used_at IS NOT NULL OR quote.expires_at <= at THEN
      problems := problems || jsonb_build_object('rule', 'quote_expired');
    ELSE
      amount := quote.amount;
    END IF;
  END IF;
  IF frozen THEN
    problems := problems || jsonb_build_object('rule', 'wallet_frozen');
  END IF;
  IF quote_id IS NOT NULL THEN
    IF debit.id IS NULL AND quote.id IS NOT NULL THEN
      problems := problems || jsonb_build_object('rule', 'account_missing');
    ELSIF quote.id IS NOT NULL THEN
      found_problem := limits_exchange_refusal(rules, payer_level, quote.from_currency, quote.amount,
        quote.to_currency, quote.receive_amount, held);
      IF found_problem IS NOT NULL THEN problems := problems || found_problem; END IF;
    END IF;
  ELSE
    IF credit.id IS NULL AND credit.user_id IS NULL THEN
      problems := problems || jsonb_build_object('rule', 'payee_account_missing');
    END IF;
    found_problem := limits_spend_refusal(rules, payer_level, currency, kind, payee IS NOT NULL, amount, sent);
    IF found_problem IS NOT NULL THEN problems := problems || found_problem; END IF;
    IF payee IS NOT NULL AND credit.user_id IS NOT NULL THEN
      found_problem := limits_receive_refusal(rules, payee_level, currency, amount, held);
      IF found_problem IS NOT NULL THEN
        problems := problems || (found_problem || jsonb_build_object('rule', 'recipient_limit_balance'));
      END IF;
    END IF;
  END IF;
  IF debit.id IS NOT NULL AND ledger_available(debit) < amount THEN
    problems := problems || jsonb_build_object('rule', 'insufficient_funds');
  END IF;
  END IF;

  -- 3. The epilogue.
  IF jsonb_array_length(problems) > 0 THEN
    IF NOT check_only AND call_key IS NOT NULL THEN
      PERFORM idempotency_release(payer, call_name, call_key);
    END IF;
    outcome := 'refused';
    refusal := problems -> 0;
    RETURN NEXT;
    RETURN;
  END IF;
  IF check_only THEN
    outcome := 'allowed';
    RETURN NEXT;
    RETURN;
  END IF;

  IF goal_id IS NOT NULL THEN
    IF goal_direction = 'close' THEN
      UPDATE savings_goals g SET closed_at = at, round_up = 0 WHERE g.id = goal.id;
    END IF;
    IF amount > 0 AND NOT ledger_move(movement_id,
        CASE WHEN goal_direction = 'deposit' THEN debit.id ELSE saved.id END,
        CASE WHEN goal_direction = 'deposit' THEN saved.id ELSE debit.id END,
        amount, currency, 'savings', 'posted', false, 'savings:' || movement_id, 'goal', goal.id::text,
        description, at, at, 'single', at) THEN
      RAISE EXCEPTION 'ledger_pay: the movement % exists already', movement_id;
    END IF;
    outcome := 'created';
    RETURN NEXT;
    RETURN;
  END IF;
  IF credit.id IS NULL THEN
    INSERT INTO ledger_accounts (user_id, purpose, currency, created_at)
    VALUES (coalesce(payee, payer), 'user', coalesce(to_currency, currency), at)
    ON CONFLICT DO NOTHING;
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id = coalesce(payee, payer) AND a.currency = coalesce(to_currency, currency) FOR NO KEY UPDATE;
  END IF;
  IF quote_id IS NOT NULL THEN
    FOR person IN SELECT a FROM ledger_accounts a
      WHERE a.user_id IS NULL AND a.purpose = 'exchange' AND a.currency IN (quote.from_currency, quote.to_currency)
      ORDER BY a.id FOR NO KEY UPDATE LOOP
      IF (person.a).currency = quote.from_currency THEN sink := person.a; ELSE source := person.a; END IF;
    END LOOP;
    UPDATE exchange_quotes q SET used_at = at WHERE q.id = quote.id;
    -- The ledger keys are the quote's: a quote moves money once, whatever happens above.
    IF NOT ledger_move(movement_id, debit.id, sink.id, quote.amount, quote.from_currency, 'exchange', 'posted', false,
        'exchange:' || quote.id || ':out', 'exchange', quote.id::text, description, at, at, 'single', at)
       OR NOT ledger_move(in_id, source.id, credit.id, quote.receive_amount, quote.to_currency, 'exchange', 'posted',
        false, 'exchange:' || quote.id || ':in', 'exchange', quote.id::text, description, at, at, 'single', at) THEN
      RAISE EXCEPTION 'ledger_pay: the quote % moved money already', quote.id;
    END IF;
  -- The movement's ledger key is made of its new id.
  ELSIF NOT ledger_move(movement_id, debit.id, credit.id, amount, currency, kind,
      CASE WHEN hold THEN 'pending' ELSE 'posted' END, hold, kind || ':' || movement_id, reference_type,
      reference_id, description, at, CASE WHEN hold THEN NULL ELSE at END,
      CASE WHEN hold THEN 'hold' ELSE 'single' END, at) THEN
    RAISE EXCEPTION 'ledger_pay: the movement % exists already', movement_id;
  END IF;
  -- A payment's round-up into a savings goal and its budgets' notices, in this statement (goals.sql),
  -- asked only of a person who saves.
  IF quote_id IS NULL AND saves THEN
    PERFORM goals_after_payment(payer, movement_id, debit.id, currency, amount, kind, at);
  END IF;
  outcome := 'created';
  RETURN NEXT;
END
$$;
