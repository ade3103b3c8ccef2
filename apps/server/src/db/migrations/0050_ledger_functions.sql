-- A ledger movement is one statement (one round trip), in the caller's transaction or on its own.
-- Measured (issue 9): the same work as four statements from Node spent most of its time in round
-- trips and client CPU, not in PostgreSQL; a function runs it server-side with its plans cached.
-- The rules are those of 0020_ledger.sql and apps/server/src/ledger/index.ts, which calls these:
-- accounts locked in id order (FOR NO KEY UPDATE), a used idempotency key returns the first
-- transfer and moves nothing, a user's available money never goes below zero, one entry per side
-- with the balances after it, and the notifications of the people whose money moved.
--
-- Notifications are given as parallel arrays (side, kind, message key): a side ('debit' or
-- 'credit') becomes the user owning that account, and system accounts get none. Their parameters
-- are the transfer's amount and currency.
--
-- Every function answers one row: outcome and the transfer (null when nothing was found).
--   ledger_open:   created | repeated (the key's first transfer) | missing | currency | insufficient
--   ledger_settle: changed | unchanged (already settled this way) | settled (the other way) | missing

CREATE FUNCTION ledger_write_entries(
  t ledger_transfers, d ledger_accounts, c ledger_accounts, phase text, at timestamptz,
  note_sides text[], note_kinds text[], note_keys text[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
    pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
  VALUES
    (t.id, d.id, d.user_id, phase, -t.amount, t.currency, t.kind, d.balance, d.pending_debits,
      d.pending_credits, d.version, at, t.created_at),
    (t.id, c.id, c.user_id, phase, t.amount, t.currency, t.kind, c.balance, c.pending_debits,
      c.pending_credits, c.version, at, t.created_at);
  IF cardinality(note_sides) > 0 THEN
    INSERT INTO notifications (user_id, kind, message_key, params, created_at)
    SELECT CASE n.side WHEN 'debit' THEN d.user_id ELSE c.user_id END, n.kind, n.message_key,
      jsonb_build_object('amount_minor', t.amount::text, 'currency', t.currency), at
    FROM unnest(note_sides, note_kinds, note_keys) WITH ORDINALITY AS n (side, kind, message_key, ord)
    WHERE CASE n.side WHEN 'debit' THEN d.user_id ELSE c.user_id END IS NOT NULL
    ORDER BY n.ord;
  END IF;
END
$$;

CREATE FUNCTION ledger_open(
  p_id uuid, p_debit uuid, p_credit uuid, p_amount bigint, p_currency text, p_kind text, p_is_hold boolean,
  p_key text, p_reference_type text, p_reference_id text, p_description jsonb, p_at timestamptz,
  note_sides text[], note_kinds text[], note_keys text[]
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a ledger_accounts;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
BEGIN
  -- LockRows sits above the sort: the rows are locked in id order, the one order every movement uses.
  FOR a IN SELECT * FROM ledger_accounts WHERE id IN (p_debit, p_credit) ORDER BY id FOR NO KEY UPDATE LOOP
    IF a.id = p_debit THEN d := a; ELSE c := a; END IF;
  END LOOP;
  -- A new statement sees a transfer with this key committed while this one waited for the locks.
  SELECT * INTO t FROM ledger_transfers WHERE idempotency_key = p_key;
  IF FOUND THEN RETURN QUERY SELECT 'repeated', t; RETURN; END IF;
  IF d.id IS NULL OR c.id IS NULL THEN RETURN QUERY SELECT 'missing', NULL::ledger_transfers; RETURN; END IF;
  IF d.currency <> p_currency OR c.currency <> p_currency THEN
    RETURN QUERY SELECT 'currency', NULL::ledger_transfers; RETURN;
  END IF;
  IF d.user_id IS NOT NULL AND d.balance - d.pending_debits < p_amount THEN
    RETURN QUERY SELECT 'insufficient', NULL::ledger_transfers; RETURN;
  END IF;

  INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
    idempotency_key, reference_type, reference_id, description, created_at, settled_at)
  VALUES (p_id, p_debit, p_credit, p_amount, p_currency, p_kind, CASE WHEN p_is_hold THEN 'pending' ELSE 'posted' END,
    p_is_hold, p_key, p_reference_type, p_reference_id, p_description, p_at, CASE WHEN p_is_hold THEN NULL ELSE p_at END)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING * INTO t;
  IF NOT FOUND THEN
    -- The same key on other accounts, committed after this statement's lock query began.
    SELECT * INTO t FROM ledger_transfers WHERE idempotency_key = p_key;
    RETURN QUERY SELECT 'repeated', t; RETURN;
  END IF;

  -- A hold takes the money out of the debit side's available balance; a plain transfer moves it.
  UPDATE ledger_accounts SET
    balance = balance - CASE WHEN p_is_hold THEN 0 ELSE p_amount END,
    pending_debits = pending_debits + CASE WHEN p_is_hold THEN p_amount ELSE 0 END,
    version = version + 1
  WHERE id = p_debit RETURNING * INTO d;
  UPDATE ledger_accounts SET
    balance = balance + CASE WHEN p_is_hold THEN 0 ELSE p_amount END,
    pending_credits = pending_credits + CASE WHEN p_is_hold THEN p_amount ELSE 0 END,
    version = version + 1
  WHERE id = p_credit RETURNING * INTO c;
  PERFORM ledger_write_entries(t, d, c, CASE WHEN p_is_hold THEN 'hold' ELSE 'single' END, p_at,
    note_sides, note_kinds, note_keys);
  RETURN QUERY SELECT 'created', t;
END
$$;

CREATE FUNCTION ledger_settle(
  p_hold uuid, p_outcome text, p_at timestamptz, note_sides text[], note_kinds text[], note_keys text[]
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a ledger_accounts;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
  moves bigint;
BEGIN
  SELECT * INTO t FROM ledger_transfers WHERE id = p_hold AND is_hold;
  IF NOT FOUND THEN RETURN QUERY SELECT 'missing', NULL::ledger_transfers; RETURN; END IF;
  FOR a IN SELECT * FROM ledger_accounts WHERE id IN (t.debit_account_id, t.credit_account_id)
    ORDER BY id FOR NO KEY UPDATE LOOP
    IF a.id = t.debit_account_id THEN d := a; ELSE c := a; END IF;
  END LOOP;
  -- Under the accounts' locks no other settlement of this hold runs: read its status again.
  SELECT * INTO t FROM ledger_transfers WHERE id = p_hold FOR UPDATE;
  IF t.status = p_outcome THEN RETURN QUERY SELECT 'unchanged', t; RETURN; END IF;
  IF t.status <> 'pending' THEN RETURN QUERY SELECT 'settled', t; RETURN; END IF;

  UPDATE ledger_transfers SET status = p_outcome, settled_at = p_at WHERE id = p_hold RETURNING * INTO t;
  moves := CASE WHEN p_outcome = 'posted' THEN t.amount ELSE 0 END;
  UPDATE ledger_accounts SET balance = balance - moves, pending_debits = pending_debits - t.amount,
    version = version + 1
  WHERE id = t.debit_account_id RETURNING * INTO d;
  UPDATE ledger_accounts SET balance = balance + moves, pending_credits = pending_credits - t.amount,
    version = version + 1
  WHERE id = t.credit_account_id RETURNING * INTO c;
  PERFORM ledger_write_entries(t, d, c, CASE WHEN p_outcome = 'posted' THEN 'post' ELSE 'void' END, p_at,
    note_sides, note_kinds, note_keys);
  RETURN QUERY SELECT 'changed', t;
END
$$;
