-- An exchange between a person's own accounts (docs/decisions.md section 15): the quote's figures move
-- in one statement as two transfers of kind 'exchange', each through the currency's 'exchange' system
-- account, so every currency still sums to zero:
--   from-account -> exchange(from_currency)   the quoted amount (the fee included)
--   exchange(to_currency) -> to-account        the quoted receive_amount
-- In this order: the person's row locked (then their accounts, then the system accounts, as the payment
-- door does); the PIN's proof; the idempotency key claimed (a used key answers the first call's answer,
-- before any refusal); the quote (missing, someone else's, expired or used: quote_expired); the rules
-- (a frozen wallet; limits.sql's permission and balance cap); the money available. A refusal gives the
-- key back and changes nothing. The to-account is opened when missing, only when the money moves.
-- Answers (outcome, refusal, first_request_hash, first_answer), outcome created | repeated | refused.
CREATE OR REPLACE FUNCTION ledger_exchange(
  quote_id uuid,
  person uuid,
  -- Ids of the two transfers (out of the from-account, into the to-account), made by the caller.
  out_id uuid,
  in_id uuid,
  description jsonb,
  at timestamptz,
  rules jsonb,
  pin_proof bytea,
  call_name text,
  call_key text,
  request_hash text,
  answer jsonb
) RETURNS TABLE (outcome text, refusal jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  who record;
  quote exchange_quotes;
  debit ledger_accounts;
  credit ledger_accounts;
  account ledger_accounts;
  source ledger_accounts;
  sink ledger_accounts;
  first record;
BEGIN
  SELECT u.identification_level AS level, u.frozen_at IS NOT NULL AS frozen,
      pin_proven(u, pin_proof) AS proven
    INTO who FROM users u WHERE u.id = person FOR NO KEY UPDATE;
  IF who.proven IS NOT TRUE THEN
    outcome := 'refused';
    refusal := jsonb_build_object('rule', 'pin');
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

  SELECT * INTO quote FROM exchange_quotes q WHERE q.id = quote_id AND q.user_id = person FOR UPDATE;
  FOR account IN SELECT * FROM ledger_accounts a
    WHERE a.user_id = person AND a.currency IN (quote.from_currency, quote.to_currency)
    ORDER BY a.id FOR NO KEY UPDATE LOOP
    IF account.currency = quote.from_currency THEN debit := account; ELSE credit := account; END IF;
  END LOOP;
  IF quote.id IS NULL OR quote.used_at IS NOT NULL OR quote.expires_at <= at THEN
    refusal := jsonb_build_object('rule', 'quote_expired');
  ELSIF who.frozen THEN
    refusal := jsonb_build_object('rule', 'wallet_frozen');
  ELSIF debit.id IS NULL THEN
    refusal := jsonb_build_object('rule', 'account_missing');
  ELSE
    refusal := limits_exchange_refusal(rules, who.level, person, quote.from_currency, quote.amount,
      quote.to_currency, quote.receive_amount, at);
    IF refusal IS NULL AND debit.balance - debit.pending_debits < quote.amount THEN
      refusal := jsonb_build_object('rule', 'insufficient_funds');
    END IF;
  END IF;
  IF refusal IS NOT NULL THEN
    IF call_key IS NOT NULL THEN
      PERFORM idempotency_release(person, call_name, call_key);
    END IF;
    outcome := 'refused';
    RETURN NEXT;
    RETURN;
  END IF;

  IF credit.id IS NULL THEN
    INSERT INTO ledger_accounts (user_id, purpose, currency, created_at)
    VALUES (person, 'user', quote.to_currency, at)
    ON CONFLICT DO NOTHING;
    SELECT * INTO credit FROM ledger_accounts a
    WHERE a.user_id = person AND a.currency = quote.to_currency FOR NO KEY UPDATE;
  END IF;
  FOR account IN SELECT * FROM ledger_accounts a
    WHERE a.user_id IS NULL AND a.purpose = 'exchange' AND a.currency IN (quote.from_currency, quote.to_currency)
    ORDER BY a.id FOR NO KEY UPDATE LOOP
    IF account.currency = quote.from_currency THEN sink := account; ELSE source := account; END IF;
  END LOOP;
  UPDATE exchange_quotes q SET used_at = at WHERE q.id = quote.id;
  -- The ledger keys are the quote's: a quote moves money once, whatever happens above.
  IF NOT ledger_move(out_id, debit.id, sink.id, quote.amount, quote.from_currency, 'exchange', 'posted', false,
      'exchange:' || quote.id || ':out', 'exchange', quote.id::text, description, at, at, 'single', at)
     OR NOT ledger_move(in_id, source.id, credit.id, quote.receive_amount, quote.to_currency, 'exchange', 'posted',
      false, 'exchange:' || quote.id || ':in', 'exchange', quote.id::text, description, at, at, 'single', at) THEN
    RAISE EXCEPTION 'ledger_exchange: the quote % moved money already', quote.id;
  END IF;
  outcome := 'created';
  RETURN NEXT;
END
$$;
