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
