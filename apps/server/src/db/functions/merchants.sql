-- A merchant's refund (docs/decisions/merchants.md#merchants): the merchant's money back to the person who
-- paid, one statement over the persons' door's prologue and epilogue (payments.sql). Its call (a jsonb of
-- named fields made by ledger/doors.ts): id (the movement), merchant (the merchant's id: its
-- Idempotency-Key's owner), payment_id, amount, description, at, and the key's fields.
-- Locks the payer with their account (door_lock), then the merchant's account, then the payment's row
-- (the caller's transaction holds it already), the order a merchant payment takes, so they never deadlock.
-- Refuses 'not_refundable' (not a paid payment of this merchant), 'refund_exceeds' (more than is left,
-- `left` in kopecks), 'insufficient_funds' (the merchant's balance), 'recipient_closed'.
CREATE OR REPLACE FUNCTION ledger_merchant_refund(call jsonb)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  merchant_id uuid := (call->>'merchant')::uuid;
  payment_id uuid := (call->>'payment_id')::uuid;
  amount bigint := (call->>'amount')::bigint;
  at timestamptz := (call->>'at')::timestamptz;
  payment merchant_payments;
  payer uuid;
  locked record;
  claim record;
  debit ledger_accounts;
  credit ledger_accounts;
  refusals jsonb := '[]';
BEGIN
  -- 1. The prologue.
  SELECT p.payer_id INTO payer FROM merchant_payments p
  WHERE p.id = payment_id AND p.merchant_id = merchant_id AND p.status = 'succeeded';
  SELECT * INTO locked FROM door_lock(NULL, payer, 'RUB', NULL, NULL);
  credit := locked.credit;
  SELECT a.* INTO debit FROM merchants m JOIN ledger_accounts a ON a.id = m.account_id
  WHERE m.id = merchant_id FOR NO KEY UPDATE OF a;
  IF payer IS NULL OR debit.id IS NULL THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'not_refundable'));
  ELSIF credit.id IS NULL THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'payee_account_missing'));
  END IF;
  SELECT * INTO claim FROM door_claim(call, merchant_id, payer, at, refusals);
  IF claim.outcome IS NOT NULL THEN
    RETURN QUERY SELECT claim.outcome, claim.refusal, claim.problems, claim.first_request_hash, claim.first_answer;
    RETURN;
  END IF;

  -- 2. The rules.
  refusals := door_closed(false, locked.payee_closed);
  SELECT * INTO payment FROM merchant_payments p WHERE p.id = payment_id FOR UPDATE;
  IF payment.refunded + amount > payment.amount THEN
    refusals := refusals || jsonb_build_object('rule', 'refund_exceeds', 'currency', 'RUB',
      'left', (payment.amount - payment.refunded)::text);
  END IF;
  IF ledger_available(debit) < amount THEN
    refusals := refusals || jsonb_build_object('rule', 'insufficient_funds');
  END IF;

  -- 3. The epilogue.
  RETURN QUERY SELECT * FROM door_answer(call, merchant_id, refusals);
  IF FOUND THEN RETURN; END IF;
  UPDATE merchant_payments p SET refunded = p.refunded + amount WHERE p.id = payment_id;
  IF NOT ledger_move((call->>'id')::uuid, debit.id, credit.id, amount, 'RUB', 'refund', 'posted', false,
      'merchant_payment', payment_id::text, call->'description', at, at, 'single', at) THEN
    RAISE EXCEPTION 'ledger_merchant_refund: the movement % exists already', call->>'id';
  END IF;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;

-- A merchant's settlement (docs/decisions/merchants.md#settlement): `amount` of the merchant's money held
-- toward payout clearing, for the payouts provider to pay to the merchant's bank account; the payout settles
-- or voids the hold once (ledger_settle). Its call (made by ledger/doors.ts): id (the hold), person (the
-- merchant's owner: the key's and the PIN's), merchant, amount, reference_type and reference_id (the
-- payout), description, at, and the key's fields. Confirmed by the owner's PIN proof, or, without one, only
-- as the daily run (`call` 'merchantSettlementRun', which no person's request can name).
-- Locks the owner with their account (door_lock), then the merchant's account, then payout clearing: the
-- order a merchant payment and a refund take. Refuses 'merchant_not_active', 'wallet_closed',
-- 'wallet_frozen', 'insufficient_funds' (the merchant's available balance); never touches the person's
-- wallet or limits.
CREATE OR REPLACE FUNCTION ledger_merchant_settle(call jsonb, pin_proof bytea)
RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  person uuid := (call->>'person')::uuid;
  merchant_id uuid := (call->>'merchant')::uuid;
  amount bigint := (call->>'amount')::bigint;
  at timestamptz := (call->>'at')::timestamptz;
  merchant merchants;
  locked record;
  claim record;
  debit ledger_accounts;
  credit ledger_accounts;
  refusals jsonb := '[]';
BEGIN
  -- 1. The prologue.
  SELECT * INTO locked FROM door_lock(person, NULL, 'RUB', NULL, pin_proof);
  SELECT m.* INTO merchant FROM merchants m WHERE m.id = merchant_id AND m.user_id = person;
  SELECT a.* INTO debit FROM ledger_accounts a WHERE a.id = merchant.account_id FOR NO KEY UPDATE;
  SELECT a.* INTO credit FROM ledger_accounts a
  WHERE a.user_id IS NULL AND a.purpose = 'payout_clearing' AND a.currency = 'RUB' FOR NO KEY UPDATE;
  IF locked.payer_level IS NULL OR debit.id IS NULL OR credit.id IS NULL THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'account_missing'));
  ELSIF locked.proven IS NOT TRUE AND NOT (pin_proof IS NULL AND call->>'call' = 'merchantSettlementRun') THEN
    refusals := jsonb_build_array(jsonb_build_object('rule', 'pin'));
  END IF;
  SELECT * INTO claim FROM door_claim(call, person, person, at, refusals);
  IF claim.outcome IS NOT NULL THEN
    RETURN QUERY SELECT claim.outcome, claim.refusal, claim.problems, claim.first_request_hash, claim.first_answer;
    RETURN;
  END IF;

  -- 2. The rules.
  refusals := door_closed(locked.payer_closed, false);
  IF merchant.status <> 'active' THEN
    refusals := refusals || jsonb_build_object('rule', 'merchant_not_active');
  END IF;
  IF locked.frozen THEN
    refusals := refusals || jsonb_build_object('rule', 'wallet_frozen');
  END IF;
  IF amount <= 0 OR ledger_available(debit) < amount THEN
    refusals := refusals || jsonb_build_object('rule', 'insufficient_funds');
  END IF;

  -- 3. The epilogue.
  RETURN QUERY SELECT * FROM door_answer(call, person, refusals);
  IF FOUND THEN RETURN; END IF;
  IF NOT ledger_move((call->>'id')::uuid, debit.id, credit.id, amount, 'RUB', 'withdrawal', 'pending', true,
      call->>'reference_type', call->>'reference_id', call->'description', at, NULL, 'hold', at) THEN
    RAISE EXCEPTION 'ledger_merchant_settle: the hold % exists already', call->>'id';
  END IF;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;
