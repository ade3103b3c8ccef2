-- A person's payment: the one door for money a person sends, to another person (a transfer, a QR
-- payment to a wallet user) or out of the wallet, held toward a system account (a payout: a
-- withdrawal, a QR payment to a bank account). One statement, in this order:
--   1. the people's rows, each with their account in the currency, locked in user id order (then the
--      system account), so two payments of one person are decided one after the other and opposite
--      transfers never deadlock;
--   2. the PIN: the proof the server made is compared with the stored hash; when it does not prove
--      the PIN (a wrong PIN, a lock, a stale salt) the answer is 'pin', and the server's PIN check
--      decides and counts it (modules/auth/pin.ts); a run of a scheduled transfer has no proof and is
--      authorised by its active standing order instead (the PIN confirmed it when it was made);
--   3. the idempotency key claimed with the call's answer: a used key answers the first call's
--      fingerprint and answer, before any refusal;
--   4. the rules: a frozen wallet sends nothing; limits.sql's (the payer's level and monthly limit, the
--      payee's balance cap); then the payer's available money. A refusal gives the key back;
--   5. the movement written by ledger_move.
-- With `check_only` (the answers before the PIN) there is no PIN and no key: every rule is asked and
-- every refusal listed, and nothing is written.
-- Answers (outcome, refusal, problems, first_request_hash, first_answer), outcome one of
--   created | repeated (with the first call's fingerprint and answer) | refused (refusal names the
--   first rule, problems lists every one) | allowed (check_only)
-- A payee with no account in the currency gets one when the payment is written (docs/decisions.md
-- section 15); their row is locked after the payer's, and a refused payment opens nothing.
-- Refusals beside those of limits.sql: pin, account_missing, payee_account_missing, wallet_frozen,
-- recipient_limit_balance (the payee's cap, which tells the payer nothing of the payee's level),
-- insufficient_funds.

-- The signature before `check_only` and `problems` (a changed signature is dropped, never overloaded).
DROP FUNCTION IF EXISTS ledger_pay(uuid, uuid, uuid, text, text, bigint, text, boolean, text, text, jsonb,
  timestamptz, jsonb, bytea, text, text, text, jsonb);

CREATE OR REPLACE FUNCTION ledger_pay(
  movement_id uuid,
  payer uuid,
  -- The person paid; null when the money is held toward the currency's `system_account`.
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
  check_only boolean DEFAULT false
) RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  person record;
  payer_level text;
  payee_level text;
  frozen boolean := false;
  proven boolean := false;
  debit ledger_accounts;
  credit ledger_accounts;
  first record;
  found_problem jsonb;
BEGIN
  FOR person IN SELECT u.id, u.identification_level AS level, u.frozen_at IS NOT NULL AS frozen,
      pin_proven(u, pin_proof) AS proven, a AS account
    FROM users u JOIN ledger_accounts a ON a.user_id = u.id AND a.currency = currency
    WHERE u.id IN (payer, payee) ORDER BY u.id FOR NO KEY UPDATE OF u, a LOOP
    IF person.id = payer THEN
      debit := person.account;
      payer_level := person.level;
      frozen := person.frozen;
      proven := person.proven;
    ELSE
      credit := person.account;
      payee_level := person.level;
    END IF;
  END LOOP;
  IF payee IS NOT NULL AND credit.id IS NULL THEN
    SELECT u.identification_level INTO payee_level FROM users u WHERE u.id = payee FOR NO KEY UPDATE;
    IF FOUND THEN
      credit.user_id := payee;
      credit.currency := currency;
    END IF;
  END IF;
  IF payee IS NULL THEN
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = system_account AND a.currency = currency FOR NO KEY UPDATE;
  END IF;

  IF debit.id IS NULL THEN
    refusal := jsonb_build_object('rule', 'account_missing');
  ELSIF NOT check_only AND proven IS NOT TRUE AND NOT (pin_proof IS NULL AND reference_type = 'scheduled_transfer'
      AND EXISTS (SELECT 1 FROM scheduled_transfers s WHERE s.id::text = reference_id AND s.user_id = payer
        AND s.payee_id = payee AND s.amount = amount AND s.currency = currency AND s.status = 'active')) THEN
    -- Without a PIN only a run of the payer's active standing order, which the PIN confirmed.
    refusal := jsonb_build_object('rule', 'pin');
  END IF;
  IF refusal IS NOT NULL THEN
    outcome := 'refused';
    problems := jsonb_build_array(refusal);
    RETURN NEXT;
    RETURN;
  END IF;
  -- Claimed before the rules, since payments succeed far more often than they are refused or repeated.
  IF NOT check_only AND call_key IS NOT NULL THEN
    SELECT * INTO first FROM idempotency_claim(payer, call_name, call_key, request_hash, answer, at);
    IF NOT first.claimed THEN
      outcome := 'repeated';
      first_request_hash := first.first_request_hash;
      first_answer := first.first_answer;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  problems := '[]'::jsonb;
  IF frozen THEN
    problems := problems || jsonb_build_object('rule', 'wallet_frozen');
  END IF;
  IF credit.id IS NULL AND credit.user_id IS NULL THEN
    problems := problems || jsonb_build_object('rule', 'payee_account_missing');
  END IF;
  found_problem := limits_spend_refusal(rules, payer_level, debit, kind, payee IS NOT NULL, amount, at);
  IF found_problem IS NOT NULL THEN problems := problems || found_problem; END IF;
  IF payee IS NOT NULL AND credit.user_id IS NOT NULL THEN
    found_problem := limits_receive_refusal(rules, payee_level, credit, amount, at);
    IF found_problem IS NOT NULL THEN
      problems := problems || (found_problem || jsonb_build_object('rule', 'recipient_limit_balance'));
    END IF;
  END IF;
  IF debit.balance - debit.pending_debits < amount THEN
    problems := problems || jsonb_build_object('rule', 'insufficient_funds');
  END IF;
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

  IF credit.id IS NULL THEN
    INSERT INTO ledger_accounts (user_id, purpose, currency, created_at) VALUES (payee, 'user', currency, at)
    ON CONFLICT DO NOTHING;
    SELECT * INTO credit FROM ledger_accounts a WHERE a.user_id = payee AND a.currency = currency FOR NO KEY UPDATE;
  END IF;
  -- The movement's ledger key is made of its new id.
  IF NOT ledger_move(movement_id, debit.id, credit.id, amount, currency, kind, CASE WHEN hold THEN 'pending' ELSE 'posted' END,
      hold, kind || ':' || movement_id, reference_type, reference_id, description, at, CASE WHEN hold THEN NULL ELSE at END,
      CASE WHEN hold THEN 'hold' ELSE 'single' END, at) THEN
    RAISE EXCEPTION 'ledger_pay: the movement % exists already', movement_id;
  END IF;
  outcome := 'created';
  RETURN NEXT;
END
$$;
