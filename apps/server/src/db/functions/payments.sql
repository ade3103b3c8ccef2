-- A person's money calls: the door for money a person moves (docs/decisions/money-door.md), one
-- function per kind, each taking its call as named fields (`call`, a jsonb object made by
-- ledger/doors.ts) and sharing one prologue and one epilogue (below, and ops_refund in ops.sql):
--   ledger_pay       to another person (a transfer, a QR payment to a wallet user, a request's payment,
--                    a schedule's run), to a merchant's account (`merchant_account`, posted at once, its
--                    `fee` moved on to 'fees' in the same statement) or out of the wallet (a withdrawal, a
--                    QR payment to a bank account: held toward the currency's `toward` system account, then
--                    settled by ledger_settle; a payout's `fee` held beside it toward 'fees' as the transfer
--                    `fee_id`, settled with it); with `check` it only answers what would refuse it (before
--                    the PIN)
--   ledger_exchange  an exchange between one's own accounts: the quote's figures move as two transfers
--                    through the currencies' 'exchange' system accounts
--   ledger_goal      a savings goal's deposit (a regular deposit's run too), withdrawal or closing
--                    (goals.sql): kind 'savings' between the account and the goal's, neither outgoing
--                    nor over the cap
-- Each is one statement, in this order:
--   1. the prologue (door_lock, then door_claim): the people's rows, each with their accounts in the call's
--      currencies, locked in user id order (then system accounts), so two calls of one person are
--      decided one after the other and opposite transfers never deadlock; the PIN proof (pin.sql
--      decides it; a refusal 'pin' lets modules/auth/pin.ts check and count the PIN); the
--      Idempotency-Key claimed with the call's answer (idempotency.sql): a used key answers the first
--      call's fingerprint and answer, before any rule;
--   2. a closed wallet on either side (nothing moves once a wallet is closed: a release, a schedule's
--      run, a request's payment), then the door's own rules (limits.sql's, the money available:
--      ledger_available);
--   3. the epilogue (door_answer): a refusal gives the key back and writes nothing; otherwise the
--      movement is written by ledger_move, which tells the people's live events, and the answer,
--      stored with the key, is the call's.
-- Answers (outcome, refusal, problems, first_request_hash, first_answer), outcome one of
--   created | repeated (the first call's fingerprint and answer) | refused (refusal names the first
--   rule, problems lists every one) | allowed (check)
-- A payee (or the exchanging person) with no account in the currency gets one when the money moves;
-- a refused call opens nothing.

DROP FUNCTION IF EXISTS ledger_exchange(uuid, uuid, uuid, uuid, jsonb, timestamptz, jsonb, bytea, text, text, text, jsonb);
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb, boolean);
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb, boolean, uuid, uuid);
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb, boolean, uuid, uuid, uuid, text);

-- The prologue's locks: the payer's and the payee's rows (either may be null) with their accounts in
-- `currency` and `to_currency`, in user id order. The payer's account in `currency` is `debit`; the
-- payee's, or the payer's in `to_currency`, is `credit`. Rarely a person has no account there: a payer
-- alone in the call is locked alone, a payee after (their `credit` names them with no id yet).
CREATE OR REPLACE FUNCTION door_lock(
  payer uuid, payee uuid, currency text, to_currency text, pin_proof bytea,
  OUT payer_level text, OUT payee_level text, OUT frozen boolean, OUT proven boolean,
  OUT debit ledger_accounts, OUT credit ledger_accounts, OUT payer_closed boolean, OUT payee_closed boolean
) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  person record;
BEGIN
  frozen := false;
  payer_closed := false;
  payee_closed := false;
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
  IF payer_level IS NULL AND payee IS NULL AND payer IS NOT NULL THEN
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
END
$$;

-- Every door's first rule: a closed wallet's money stays where it is, whoever lets it go
-- (docs/security.md, 'Antifraud and the trusted person: which paths are judged'); a closed payee
-- is only 'cannot accept now'. Answers the refusals (door_lock's figures), an empty list when none.
CREATE OR REPLACE FUNCTION door_closed(payer_closed boolean, payee_closed boolean) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN payer_closed THEN '[{"rule": "wallet_closed"}]'::jsonb ELSE '[]' END
    || CASE WHEN payee_closed THEN '[{"rule": "recipient_closed"}]'::jsonb ELSE '[]' END
$$;

-- The prologue's end: a call its locks already refuse (`refusals`: no account, no PIN) answers so,
-- claiming nothing. Otherwise one statement, once the locks are held (its snapshot sees every call that
-- held them before): the call's Idempotency-Key claimed with its answer (idempotency.sql; none for a
-- check or a call without a key), before the rules, since money calls succeed far more often than they
-- are refused or repeated; the figures the limits read (what the payer sent this month, what the
-- receiving person holds); and whether the payer saves (goals.sql). One statement for the three, since
-- each statement of PL/pgSQL starts an executor. `outcome` is set when the call ends here: 'refused',
-- or 'repeated' with the first call's fingerprint and answer.
DROP FUNCTION IF EXISTS door_claim(jsonb, uuid, uuid, timestamptz);
CREATE OR REPLACE FUNCTION door_claim(
  call jsonb, payer uuid, receiver uuid, at timestamptz, refusals jsonb,
  OUT outcome text, OUT refusal jsonb, OUT problems jsonb, OUT first_request_hash text, OUT first_answer jsonb,
  OUT sent bigint, OUT held bigint, OUT saves boolean
) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  claimed boolean;
BEGIN
  IF jsonb_array_length(refusals) > 0 THEN
    outcome := 'refused';
    refusal := refusals -> 0;
    problems := refusals;
    RETURN;
  END IF;
  SELECT c.claimed, c.first_request_hash, c.first_answer, f.sent, h.held,
    EXISTS (SELECT 1 FROM savings_goals g WHERE g.user_id = payer AND g.round_up > 0 AND g.closed_at IS NULL)
      OR EXISTS (SELECT 1 FROM budgets b WHERE b.user_id = payer)
  INTO claimed, first_request_hash, first_answer, sent, held, saves
  FROM limits_sent_in_month_total(payer, at) f, limits_holdings(receiver, at) h,
    idempotency_claim(payer, call->>'call', CASE WHEN (call->>'check') IS NULL THEN call->>'key' END,
      call->>'request_hash', call->'answer', at) c;
  IF claimed IS FALSE THEN
    outcome := 'repeated';
  END IF;
END
$$;

-- The epilogue's answer when the money does not move: refused by the first of `refusals` (every one
-- listed), the call's key given back (`call`; null for a call without one), so a refused call stores
-- nothing; 'allowed' for a check. No row: the call goes on and writes.
CREATE OR REPLACE FUNCTION door_answer(call jsonb, payer uuid, refusals jsonb)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(refusals) > 0 THEN
    IF call IS NOT NULL AND (call->>'check') IS NULL AND (call->>'key') IS NOT NULL THEN
      PERFORM idempotency_release(payer, call->>'call', call->>'key');
    END IF;
    RETURN QUERY SELECT 'refused', refusals -> 0, refusals, NULL::text, NULL::jsonb;
  ELSIF (call->>'check') IS NOT NULL THEN
    RETURN QUERY SELECT 'allowed', NULL::jsonb, refusals, NULL::text, NULL::jsonb;
  END IF;
END
$$;

-- To a person (payee) or held toward a system account (payee null, `toward`).
CREATE OR REPLACE FUNCTION ledger_pay(call jsonb, rules jsonb, pin_proof bytea)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  movement_id uuid := (call->>'id')::uuid;
  payer uuid := (call->>'payer')::uuid;
  payee uuid := (call->>'payee')::uuid;
  currency text := call->>'currency';
  amount bigint := (call->>'amount')::bigint;
  kind text := call->>'kind';
  toward text := call->>'toward';
  reference_type text := call->>'reference_type';
  reference_id text := call->>'reference_id';
  at timestamptz := (call->>'at')::timestamptz;
  check_only boolean := (call->>'check') IS NOT NULL;
  -- A merchant's payment: posted at once into the merchant's account, its fee out of it to 'fees'.
  merchant uuid := (call->>'merchant_account')::uuid;
  fee bigint := coalesce((call->>'fee')::bigint, 0);
  fees ledger_accounts;
  merchant_closed boolean := false;
  hold boolean := payee IS NULL AND merchant IS NULL;
  locked record;
  claim record;
  debit ledger_accounts;
  credit ledger_accounts;
  found_problem jsonb;
  refusals jsonb := '[]';
BEGIN
  -- 1. The prologue.
  SELECT * INTO locked FROM door_lock(payer, payee, currency, NULL, pin_proof);
  debit := locked.debit;
  credit := locked.credit;
  IF merchant IS NOT NULL THEN
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.id = merchant AND a.purpose = 'merchant' AND a.currency = currency FOR NO KEY UPDATE;
    -- Read under the account's lock, which closing takes too: a closed owner's merchant takes nothing.
    SELECT u.closed_at IS NOT NULL INTO merchant_closed FROM merchants m JOIN users u ON u.id = m.user_id
    WHERE m.account_id = merchant;
  ELSIF payee IS NULL THEN
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = toward AND a.currency = currency FOR NO KEY UPDATE;
  END IF;
  IF locked.payer_level IS NULL OR debit.id IS NULL THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'account_missing'));
  ELSIF NOT check_only AND locked.proven IS NOT TRUE
    -- Without a PIN only a run of the payer's active standing order, which the PIN confirmed: to its
    -- payee (a run the antifraud check held goes toward 'antifraud_hold' instead); or the release of
    -- the payer's held operation, which their PIN confirmed when it was held and the person, their
    -- trusted person or an operator has now let go (docs/decisions/antifraud.md, 'Antifraud and the trusted
    -- person'). (Asked apart: a condition with a subquery is a whole query for PL/pgSQL.)
    AND NOT (pin_proof IS NULL AND reference_type = 'scheduled_transfer'
      AND EXISTS (SELECT 1 FROM scheduled_transfers s WHERE s.id::text = reference_id AND s.user_id = payer
        AND (s.payee_id = payee OR (payee IS NULL AND s.payee_id IS NOT NULL AND toward = 'antifraud_hold'))
        AND s.amount = amount AND s.currency = currency AND s.status = 'active'))
    AND NOT (pin_proof IS NULL AND EXISTS (SELECT 1 FROM money_holds h WHERE h.movement_id = movement_id
      AND h.user_id = payer AND h.status = 'releasing' AND h.amount = amount AND h.currency = currency)) THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'pin'));
  END IF;
  SELECT * INTO claim FROM door_claim(call, payer, coalesce(payee, payer), at, refusals);
  IF claim.outcome IS NOT NULL THEN
    RETURN QUERY SELECT claim.outcome, claim.refusal, claim.problems, claim.first_request_hash, claim.first_answer;
    RETURN;
  END IF;

  -- 2. The rules.
  refusals := door_closed(locked.payer_closed,
    (payee IS NOT NULL AND locked.payee_closed) OR coalesce(merchant_closed, false));
  IF locked.frozen THEN
    refusals := refusals || jsonb_build_object('rule', 'wallet_frozen');
  END IF;
  IF credit.id IS NULL AND credit.user_id IS NULL THEN
    refusals := refusals || jsonb_build_object('rule', 'payee_account_missing');
  END IF;
  found_problem := limits_spend_refusal(rules, locked.payer_level, currency, kind, payee IS NOT NULL, amount, claim.sent);
  IF found_problem IS NOT NULL THEN refusals := refusals || found_problem; END IF;
  IF payee IS NOT NULL AND credit.user_id IS NOT NULL THEN
    found_problem := limits_receive_refusal(rules, locked.payee_level, currency, amount, claim.held);
    IF found_problem IS NOT NULL THEN
      refusals := refusals || (found_problem || jsonb_build_object('rule', 'recipient_limit_balance'));
    END IF;
  END IF;
  -- A payout's fee is paid from the same money (a merchant's fee is out of the merchant's account).
  IF ledger_available(debit) < amount + (CASE WHEN hold THEN fee ELSE 0 END) THEN
    refusals := refusals || jsonb_build_object('rule', 'insufficient_funds');
  END IF;

  -- 3. The epilogue.
  RETURN QUERY SELECT * FROM door_answer(call, payer, refusals);
  IF FOUND THEN RETURN; END IF;
  IF credit.id IS NULL THEN
    INSERT INTO ledger_accounts (user_id, purpose, currency, created_at)
    VALUES (payee, 'user', currency, at) ON CONFLICT DO NOTHING;
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id = payee AND a.currency = currency FOR NO KEY UPDATE;
  END IF;
  IF NOT ledger_move(movement_id, debit.id, credit.id, amount, currency, kind,
      CASE WHEN hold THEN 'pending' ELSE 'posted' END, hold, reference_type, reference_id,
      call->'description', at, CASE WHEN hold THEN NULL ELSE at END, CASE WHEN hold THEN 'hold' ELSE 'single' END, at) THEN
    RAISE EXCEPTION 'ledger_pay: the movement % exists already', movement_id;
  END IF;
  IF merchant IS NOT NULL AND fee > 0 THEN
    SELECT * INTO fees FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = 'fees' AND a.currency = currency FOR NO KEY UPDATE;
    IF NOT ledger_move((call->>'fee_id')::uuid, credit.id, fees.id, fee, currency, 'fee', 'posted', false,
        reference_type, reference_id, call->'fee_description', at, at, 'single', at) THEN
      RAISE EXCEPTION 'ledger_pay: the fee % exists already', call->>'fee_id';
    END IF;
  ELSIF hold AND fee > 0 THEN
    -- A payout's fee, held beside the payout (docs/decisions/sbp.md#fees): the payout's settlement
    -- posts or voids both. Kind 'fee' is not counted under the monthly limit (limits.sql).
    SELECT * INTO fees FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = 'fees' AND a.currency = currency FOR NO KEY UPDATE;
    IF NOT ledger_move((call->>'fee_id')::uuid, debit.id, fees.id, fee, currency, 'fee', 'pending', true,
        reference_type, reference_id, call->'fee_description', at, NULL, 'hold', at) THEN
      RAISE EXCEPTION 'ledger_pay: the fee % exists already', call->>'fee_id';
    END IF;
  END IF;
  -- A payment's round-up into a savings goal and its budgets' notices, in this statement (goals.sql),
  -- asked only of a person who saves.
  IF claim.saves THEN
    PERFORM goals_after_payment(payer, movement_id, debit.id, currency, amount, kind, at);
  END IF;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;

-- An exchange: the quote `quote_id` (its currencies and amounts) moved once, out of the person's account
-- as the transfer `id` and into their account in the quote's to-currency as the transfer `in_id`.
CREATE OR REPLACE FUNCTION ledger_exchange(call jsonb, rules jsonb, pin_proof bytea)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  payer uuid := (call->>'payer')::uuid;
  quote_id uuid := (call->>'quote_id')::uuid;
  at timestamptz := (call->>'at')::timestamptz;
  currency text;
  to_currency text;
  quote exchange_quotes;
  locked record;
  claim record;
  debit ledger_accounts;
  credit ledger_accounts;
  sink ledger_accounts;
  source ledger_accounts;
  side record;
  found_problem jsonb;
  refusals jsonb := '[]';
BEGIN
  -- 1. The prologue: the currencies are read first to know which accounts to lock; the quote after.
  SELECT q.from_currency, q.to_currency INTO currency, to_currency FROM exchange_quotes q
  WHERE q.id = quote_id AND q.user_id = payer;
  SELECT * INTO locked FROM door_lock(payer, NULL, currency, to_currency, pin_proof);
  debit := locked.debit;
  credit := locked.credit;
  IF locked.payer_level IS NULL THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'account_missing'));
  ELSIF locked.proven IS NOT TRUE THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'pin'));
  END IF;
  SELECT * INTO claim FROM door_claim(call, payer, payer, at, refusals);
  IF claim.outcome IS NOT NULL THEN
    RETURN QUERY SELECT claim.outcome, claim.refusal, claim.problems, claim.first_request_hash, claim.first_answer;
    RETURN;
  END IF;

  -- 2. The rules.
  refusals := door_closed(locked.payer_closed, false);
  SELECT * INTO quote FROM exchange_quotes q WHERE q.id = quote_id AND q.user_id = payer FOR UPDATE;
  IF quote.id IS NULL OR quote.used_at IS NOT NULL OR quote.expires_at <= at THEN
    refusals := refusals || jsonb_build_object('rule', 'quote_expired');
  END IF;
  IF locked.frozen THEN
    refusals := refusals || jsonb_build_object('rule', 'wallet_frozen');
  END IF;
  IF debit.id IS NULL AND quote.id IS NOT NULL THEN
    refusals := refusals || jsonb_build_object('rule', 'account_missing');
  ELSIF quote.id IS NOT NULL THEN
    found_problem := limits_exchange_refusal(rules, locked.payer_level, quote.from_currency, quote.amount,
      quote.to_currency, quote.receive_amount, claim.held);
    IF found_problem IS NOT NULL THEN refusals := refusals || found_problem; END IF;
  END IF;
  IF debit.id IS NOT NULL AND quote.id IS NOT NULL AND quote.used_at IS NULL AND quote.expires_at > at
     AND ledger_available(debit) < quote.amount THEN
    refusals := refusals || jsonb_build_object('rule', 'insufficient_funds');
  END IF;

  -- 3. The epilogue.
  RETURN QUERY SELECT * FROM door_answer(call, payer, refusals);
  IF FOUND THEN RETURN; END IF;
  IF credit.id IS NULL THEN
    INSERT INTO ledger_accounts (user_id, purpose, currency, created_at)
    VALUES (payer, 'user', to_currency, at) ON CONFLICT DO NOTHING;
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id = payer AND a.currency = to_currency FOR NO KEY UPDATE;
  END IF;
  FOR side IN SELECT a FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = 'exchange' AND a.currency IN (quote.from_currency, quote.to_currency)
    ORDER BY a.id FOR NO KEY UPDATE LOOP
    IF (side.a).currency = quote.from_currency THEN sink := side.a; ELSE source := side.a; END IF;
  END LOOP;
  -- The quote is used under its row's lock: it moves money once, whatever the call's key.
  UPDATE exchange_quotes q SET used_at = at WHERE q.id = quote.id;
  IF NOT ledger_move((call->>'id')::uuid, debit.id, sink.id, quote.amount, quote.from_currency, 'exchange', 'posted',
      false, 'exchange', quote.id::text, call->'description', at, at, 'single', at)
     OR NOT ledger_move((call->>'in_id')::uuid, source.id, credit.id, quote.receive_amount, quote.to_currency,
      'exchange', 'posted', false, 'exchange', quote.id::text, call->'description', at, at, 'single', at) THEN
    RAISE EXCEPTION 'ledger_exchange: the quote % moved money already', quote.id;
  END IF;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;

-- A savings goal's move (docs/decisions/managing-money.md, 'Managing money: categories, budgets, goals'), `direction`
-- 'deposit', 'withdraw' or 'close' (all of it back and the goal closed, the one move that asks no
-- PIN: only the owner's money returns).
-- One's own money between one's own accounts: no limit and no freeze apply, only the goal and the
-- money on the side it leaves. The goal's account is the person's, locked after their account.
CREATE OR REPLACE FUNCTION ledger_goal(call jsonb, pin_proof bytea)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  movement_id uuid := (call->>'id')::uuid;
  payer uuid := (call->>'payer')::uuid;
  goal_id uuid := (call->>'goal_id')::uuid;
  direction text := call->>'direction';
  amount bigint := (call->>'amount')::bigint;
  reference_type text := call->>'reference_type';
  reference_id text := call->>'reference_id';
  at timestamptz := (call->>'at')::timestamptz;
  currency text;
  locked record;
  claim record;
  debit ledger_accounts;
  goal savings_goals;
  saved ledger_accounts;
  refusals jsonb := '[]';
BEGIN
  -- 1. The prologue. (A goal that is not the payer's is refused as missing, after the key.)
  SELECT g.currency INTO currency FROM savings_goals g WHERE g.id = goal_id AND g.user_id = payer;
  SELECT * INTO locked FROM door_lock(payer, NULL, currency, NULL, pin_proof);
  debit := locked.debit;
  IF locked.payer_level IS NULL OR (debit.id IS NULL AND currency IS NOT NULL) THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'account_missing'));
  ELSIF locked.proven IS NOT TRUE
    -- Without a PIN only the closing, or a regular deposit's run of the payer's active standing order,
    -- which the PIN confirmed.
    AND NOT (pin_proof IS NULL AND direction = 'close')
    AND NOT (pin_proof IS NULL AND reference_type = 'scheduled_transfer' AND direction = 'deposit'
      AND EXISTS (SELECT 1 FROM scheduled_transfers s WHERE s.id::text = reference_id AND s.user_id = payer
        AND s.goal_id = goal_id AND s.amount = amount AND s.currency = currency AND s.status = 'active')) THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'pin'));
  END IF;
  SELECT * INTO claim FROM door_claim(call, payer, payer, at, refusals);
  IF claim.outcome IS NOT NULL THEN
    RETURN QUERY SELECT claim.outcome, claim.refusal, claim.problems, claim.first_request_hash, claim.first_answer;
    RETURN;
  END IF;

  -- 2. The rules.
  refusals := door_closed(locked.payer_closed, false);
  SELECT * INTO goal FROM savings_goals g WHERE g.id = goal_id AND g.user_id = payer FOR UPDATE;
  IF goal.id IS NULL OR goal.closed_at IS NOT NULL THEN
    refusals := refusals || jsonb_build_object('rule', 'missing');
  ELSE
    SELECT * INTO saved FROM ledger_accounts a WHERE a.id = goal.account_id FOR NO KEY UPDATE;
    IF direction = 'close' THEN
      amount := ledger_available(saved);
    ELSIF ledger_available(CASE WHEN direction = 'deposit' THEN debit ELSE saved END) < amount THEN
      refusals := refusals || jsonb_build_object('rule', 'insufficient_funds');
    END IF;
  END IF;

  -- 3. The epilogue.
  RETURN QUERY SELECT * FROM door_answer(call, payer, refusals);
  IF FOUND THEN RETURN; END IF;
  IF direction = 'close' THEN
    UPDATE savings_goals g SET closed_at = at, round_up = 0 WHERE g.id = goal.id;
  END IF;
  IF amount > 0 AND NOT ledger_move(movement_id,
      CASE WHEN direction = 'deposit' THEN debit.id ELSE saved.id END,
      CASE WHEN direction = 'deposit' THEN saved.id ELSE debit.id END,
      amount, currency, 'savings', 'posted', false, 'goal', goal.id::text, call->'description', at, at, 'single', at) THEN
    RAISE EXCEPTION 'ledger_goal: the movement % exists already', movement_id;
  END IF;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;
