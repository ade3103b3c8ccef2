-- The back office's functions (docs/decisions/back-office.md#the-operators-back-office).

-- The audit is append-only: the database itself refuses to change or remove a line.
CREATE OR REPLACE FUNCTION ops_audit_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the operators'' audit is append-only' USING ERRCODE = 'P0001';
END
$$;
CREATE OR REPLACE TRIGGER ops_audit_guard BEFORE UPDATE OR DELETE ON ops_audit
  FOR EACH ROW EXECUTE FUNCTION ops_audit_guard();
CREATE OR REPLACE TRIGGER ops_audit_truncate_guard BEFORE TRUNCATE ON ops_audit
  FOR EACH STATEMENT EXECUTE FUNCTION ops_audit_guard();

-- Whether an operation may be refunded: a posted movement that touched a person's account, neither a
-- refund itself nor an exchange's leg (an exchange is undone by exchanging back). Asked by the proposal
-- (ops/refunds.ts) and by ops_refund, so both decide alike.
CREATE OR REPLACE FUNCTION ops_refundable(t ledger_transfers) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT t.status = 'posted' AND t.kind NOT IN ('refund', 'exchange') AND EXISTS (
    SELECT 1 FROM ledger_accounts a WHERE a.id IN (t.debit_account_id, t.credit_account_id) AND a.user_id IS NOT NULL)
$$;

-- What is left to refund of an operation: its amount less the refunds approved of it.
CREATE OR REPLACE FUNCTION ops_refund_left(t ledger_transfers) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT t.amount - coalesce(sum(r.amount), 0)::bigint FROM ops_refunds r
  WHERE r.transfer_id = t.id AND r.status = 'approved'
$$;

-- Approves a proposed refund by another operator: the money call of an operator (modules/money-calls),
-- answering as a person's door does, through the same prologue and epilogue (payments.sql). The
-- correcting transfer goes the opposite way of the refunded one (its receiver pays back its payer), kind
-- 'refund', written by ledger_move. In one statement, in this order: the proposal locked (its status is
-- the call's key: an approved proposal answers as a repeat); the four-eyes rule; whether it may be
-- refunded (ops_refundable); the people and their accounts locked (door_lock), then any system
-- account; what is left of it (ops_refund_left); the receiver's balance cap (limits.sql, with the
-- figure door_claim reads); the payer's available money (ledger_available). Answers
-- (outcome, refusal, problems, first_request_hash, first_answer), outcome one of
--   created | repeated (approved before: first_answer is the approval's answer) | refused (refusal names the
--   rule: missing, not_proposed, four_eyes, not_refundable, refund_exceeds, recipient_limit_balance,
--   insufficient_funds)
DROP FUNCTION IF EXISTS ops_refund(uuid, uuid, uuid, jsonb, jsonb, timestamptz);
CREATE OR REPLACE FUNCTION ops_refund(
  refund_id uuid, approver uuid, movement_id uuid, rules jsonb, description jsonb, at timestamptz
) RETURNS TABLE (outcome text, refusal jsonb, problems jsonb, first_request_hash text, first_answer jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  proposal ops_refunds;
  original ledger_transfers;
  payer uuid;
  receiver uuid;
  locked record;
  claim record;
  payer_account ledger_accounts;
  receiver_account ledger_accounts;
  left_to_refund bigint;
  refusals jsonb;
BEGIN
  SELECT * INTO proposal FROM ops_refunds r WHERE r.id = refund_id FOR UPDATE;
  IF proposal.id IS NULL THEN
    refusals := jsonb_build_object('rule', 'missing');
  ELSIF proposal.status = 'approved' THEN
    RETURN QUERY SELECT 'repeated', NULL::jsonb, NULL::jsonb, proposal.id::text,
      jsonb_build_object('id', proposal.id, 'status', 'approved', 'refund_transfer_id', proposal.refund_transfer_id);
    RETURN;
  ELSIF proposal.status <> 'proposed' THEN
    refusals := jsonb_build_object('rule', 'not_proposed');
  ELSIF proposal.proposed_by = approver THEN
    refusals := jsonb_build_object('rule', 'four_eyes');
  ELSE
    SELECT * INTO original FROM ledger_transfers t WHERE t.id = proposal.transfer_id;
    IF NOT ops_refundable(original) THEN
      refusals := jsonb_build_object('rule', 'not_refundable');
    END IF;
  END IF;
  IF refusals IS NULL THEN
    -- The money goes back: the refunded transfer's credit account pays, its debit account receives.
    -- An account's owner never changes (ledger.sql), so it is read before the locks.
    SELECT a.user_id INTO payer FROM ledger_accounts a WHERE a.id = original.credit_account_id;
    SELECT a.user_id INTO receiver FROM ledger_accounts a WHERE a.id = original.debit_account_id;
    SELECT * INTO locked FROM door_lock(payer, receiver, original.currency, NULL, NULL);
    payer_account := locked.debit;
    receiver_account := locked.credit;
    IF payer_account.id IS NULL THEN
      SELECT * INTO payer_account FROM ledger_accounts a WHERE a.id = original.credit_account_id FOR NO KEY UPDATE;
    END IF;
    IF receiver_account.id IS NULL THEN
      SELECT * INTO receiver_account FROM ledger_accounts a WHERE a.id = original.debit_account_id FOR NO KEY UPDATE;
    END IF;
    SELECT * INTO claim FROM door_claim(NULL, payer, receiver, at, '[]');
    left_to_refund := ops_refund_left(original);
    IF proposal.amount > left_to_refund THEN
      refusals := jsonb_build_object('rule', 'refund_exceeds', 'left', left_to_refund::text, 'currency', original.currency);
    ELSIF receiver IS NOT NULL THEN
      -- The cap is the receiver's, not the approver's: named as a payee's is (payments.sql).
      refusals := limits_receive_refusal(rules, locked.payee_level, original.currency, proposal.amount, claim.held)
        || jsonb_build_object('rule', 'recipient_limit_balance');
    END IF;
    IF refusals IS NULL AND payer IS NOT NULL AND ledger_available(payer_account) < proposal.amount THEN
      refusals := jsonb_build_object('rule', 'insufficient_funds');
    END IF;
  END IF;
  RETURN QUERY SELECT * FROM door_answer(NULL, approver, CASE WHEN refusals IS NULL THEN '[]' ELSE jsonb_build_array(refusals) END);
  IF FOUND THEN RETURN; END IF;
  IF NOT ledger_move(movement_id, payer_account.id, receiver_account.id, proposal.amount, original.currency, 'refund',
      'posted', false, 'ops_refund', proposal.id::text, description, at, at, 'single', at) THEN
    RAISE EXCEPTION 'ops_refund: the refund % was moved already', proposal.id;
  END IF;
  UPDATE ops_refunds r SET status = 'approved', decided_by = approver, decided_at = at,
    refund_transfer_id = movement_id WHERE r.id = proposal.id;
  RETURN QUERY SELECT 'created', NULL::jsonb, NULL::jsonb, NULL::text, NULL::jsonb;
END
$$;
