-- The back office's functions (docs/decisions.md section 12).

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

-- Approves a proposed refund by another operator: the correcting transfer goes the opposite way of the
-- refunded one (its receiver pays back its payer), kind 'refund', written by ledger_move under the key
-- 'refund:<proposal>'. In one statement, in this order: the proposal locked; the people and their
-- accounts locked in user id order (as ledger_pay does), then any system account; the four-eyes rule;
-- what is left of the transfer to refund; the receiver's balance cap (limits.sql decides it); the
-- payer's available money. Answers (outcome, refusal, refund_transfer_id), outcome one of
--   created | repeated (approved before: its transfer) | refused (refusal names the rule:
--   missing, not_proposed, four_eyes, not_refundable, refund_exceeds, limit_balance, insufficient_funds)
CREATE OR REPLACE FUNCTION ops_refund(
  refund_id uuid, approver uuid, movement_id uuid, rules jsonb, description jsonb, at timestamptz
) RETURNS TABLE (outcome text, refusal jsonb, refund_transfer_id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  proposal ops_refunds;
  original ledger_transfers;
  person record;
  payer_account ledger_accounts;
  receiver_account ledger_accounts;
  receiver_level text;
  refunded bigint;
  found_problem jsonb;
BEGIN
  SELECT * INTO proposal FROM ops_refunds r WHERE r.id = refund_id FOR UPDATE;
  IF proposal.id IS NULL THEN
    outcome := 'refused'; refusal := jsonb_build_object('rule', 'missing'); RETURN NEXT; RETURN;
  END IF;
  IF proposal.status = 'approved' THEN
    outcome := 'repeated'; refund_transfer_id := proposal.refund_transfer_id; RETURN NEXT; RETURN;
  END IF;
  IF proposal.status <> 'proposed' THEN
    outcome := 'refused'; refusal := jsonb_build_object('rule', 'not_proposed'); RETURN NEXT; RETURN;
  END IF;
  IF proposal.proposed_by = approver THEN
    outcome := 'refused'; refusal := jsonb_build_object('rule', 'four_eyes'); RETURN NEXT; RETURN;
  END IF;
  SELECT * INTO original FROM ledger_transfers t WHERE t.id = proposal.transfer_id;
  IF original.status <> 'posted' OR original.kind = 'refund' THEN
    outcome := 'refused'; refusal := jsonb_build_object('rule', 'not_refundable'); RETURN NEXT; RETURN;
  END IF;
  -- The money goes back: the refunded transfer's credit account pays, its debit account receives.
  FOR person IN SELECT u.id, u.identification_level AS level, a AS account
    FROM users u JOIN ledger_accounts a ON a.user_id = u.id
    WHERE a.id IN (original.debit_account_id, original.credit_account_id)
    ORDER BY u.id FOR NO KEY UPDATE OF u, a LOOP
    IF (person.account).id = original.credit_account_id THEN payer_account := person.account; END IF;
    IF (person.account).id = original.debit_account_id THEN
      receiver_account := person.account;
      receiver_level := person.level;
    END IF;
  END LOOP;
  IF payer_account.id IS NULL THEN
    SELECT * INTO payer_account FROM ledger_accounts a WHERE a.id = original.credit_account_id FOR NO KEY UPDATE;
  END IF;
  IF receiver_account.id IS NULL THEN
    SELECT * INTO receiver_account FROM ledger_accounts a WHERE a.id = original.debit_account_id FOR NO KEY UPDATE;
  END IF;
  SELECT coalesce(sum(r.amount), 0)::bigint INTO refunded FROM ops_refunds r
    WHERE r.transfer_id = original.id AND r.status = 'approved';
  IF refunded + proposal.amount > original.amount THEN
    outcome := 'refused';
    refusal := jsonb_build_object('rule', 'refund_exceeds', 'left', (original.amount - refunded)::text);
    RETURN NEXT; RETURN;
  END IF;
  IF receiver_account.user_id IS NOT NULL THEN
    found_problem := limits_receive_refusal(rules, receiver_level, receiver_account, proposal.amount, at);
    IF found_problem IS NOT NULL THEN
      outcome := 'refused'; refusal := found_problem; RETURN NEXT; RETURN;
    END IF;
  END IF;
  IF payer_account.user_id IS NOT NULL AND payer_account.balance - payer_account.pending_debits < proposal.amount THEN
    outcome := 'refused'; refusal := jsonb_build_object('rule', 'insufficient_funds'); RETURN NEXT; RETURN;
  END IF;
  IF NOT ledger_move(movement_id, payer_account.id, receiver_account.id, proposal.amount, original.currency, 'refund',
      'posted', false, 'refund:' || proposal.id, 'ops_refund', proposal.id::text, description, at, at, 'single', at) THEN
    RAISE EXCEPTION 'ops_refund: the refund % was moved already', proposal.id;
  END IF;
  UPDATE ops_refunds r SET status = 'approved', decided_by = approver, decided_at = at,
    refund_transfer_id = movement_id WHERE r.id = proposal.id;
  outcome := 'created';
  refund_transfer_id := movement_id;
  RETURN NEXT;
END
$$;
