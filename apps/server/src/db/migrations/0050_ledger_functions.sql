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

-- Both balances, one entry per side with the balances after it, and the notifications, in one
-- statement (each statement of a function pays an executor start-up: fewer statements, less CPU).
-- Deltas are signed amounts for (balance, pending debits, pending credits) of each side.
CREATE FUNCTION ledger_write_sides(
  t ledger_transfers, phase text, at timestamptz,
  d_balance bigint, d_pending_debits bigint, c_balance bigint, c_pending_credits bigint,
  note_sides text[], note_kinds text[], note_keys text[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH v (id, side, ord, d_bal, d_pd, d_pc, amount) AS (
    VALUES (t.debit_account_id, 'debit', 1, d_balance, d_pending_debits, 0::bigint, -t.amount),
           (t.credit_account_id, 'credit', 2, c_balance, 0::bigint, c_pending_credits, t.amount)
  ), u AS (
    UPDATE ledger_accounts a
    SET balance = a.balance + v.d_bal, pending_debits = a.pending_debits + v.d_pd,
        pending_credits = a.pending_credits + v.d_pc, version = a.version + 1
    FROM v WHERE a.id = v.id
    RETURNING a.id, a.user_id, a.balance, a.pending_debits, a.pending_credits, a.version, v.side, v.ord, v.amount
  ), e AS (
    INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
      pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
    SELECT t.id, u.id, u.user_id, phase, u.amount, t.currency, t.kind, u.balance, u.pending_debits,
      u.pending_credits, u.version, at, t.created_at
    FROM u ORDER BY u.ord
  )
  INSERT INTO notifications (user_id, kind, message_key, params, created_at)
  SELECT u.user_id, n.kind, n.message_key,
    jsonb_build_object('amount_minor', t.amount::text, 'currency', t.currency), at
  FROM u CROSS JOIN LATERAL (
    SELECT * FROM unnest(note_sides, note_kinds, note_keys) WITH ORDINALITY AS n (side, kind, message_key, ord)
    WHERE n.side = u.side
  ) n
  WHERE u.user_id IS NOT NULL
  ORDER BY n.ord;
END
$$;

CREATE FUNCTION ledger_open(
  p_id uuid, p_debit uuid, p_credit uuid, p_amount bigint, p_currency text, p_kind text, p_is_hold boolean,
  p_key text, p_reference_type text, p_reference_id text, p_description jsonb, p_at timestamptz,
  note_sides text[], note_kinds text[], note_keys text[]
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a record;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
  repeated boolean := false;
BEGIN
  -- LockRows sits above the sort: the rows are locked in id order, the one order every movement uses.
  -- The key is looked up in the same statement, as of its start; a movement with this key committed
  -- while this one waited for the locks is caught by the insert's ON CONFLICT below.
  FOR a IN SELECT l AS account, EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = p_key) AS used
    FROM ledger_accounts l WHERE l.id IN (p_debit, p_credit) ORDER BY l.id FOR NO KEY UPDATE OF l LOOP
    IF (a.account).id = p_debit THEN d := a.account; ELSE c := a.account; END IF;
    repeated := repeated OR a.used;
  END LOOP;
  IF NOT repeated AND d.id IS NOT NULL AND c.id IS NOT NULL AND d.currency = p_currency AND c.currency = p_currency
     AND (d.user_id IS NULL OR d.balance - d.pending_debits >= p_amount) THEN
    INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
      idempotency_key, reference_type, reference_id, description, created_at, settled_at)
    VALUES (p_id, p_debit, p_credit, p_amount, p_currency, p_kind, CASE WHEN p_is_hold THEN 'pending' ELSE 'posted' END,
      p_is_hold, p_key, p_reference_type, p_reference_id, p_description, p_at, CASE WHEN p_is_hold THEN NULL ELSE p_at END)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING * INTO t;
    IF FOUND THEN
      -- A hold takes the money out of the debit side's available balance; a plain transfer moves it.
      PERFORM ledger_write_sides(t, CASE WHEN p_is_hold THEN 'hold' ELSE 'single' END, p_at,
        CASE WHEN p_is_hold THEN 0 ELSE -p_amount END, CASE WHEN p_is_hold THEN p_amount ELSE 0 END,
        CASE WHEN p_is_hold THEN 0 ELSE p_amount END, CASE WHEN p_is_hold THEN p_amount ELSE 0 END,
        note_sides, note_kinds, note_keys);
      RETURN QUERY SELECT 'created', t;
      RETURN;
    END IF;
  END IF;
  -- Nothing written. A key used first (also by a call committed while this one waited) answers with
  -- its first transfer before any refusal: a repeat must get what the first call got.
  SELECT * INTO t FROM ledger_transfers WHERE idempotency_key = p_key;
  IF FOUND THEN RETURN QUERY SELECT 'repeated', t; RETURN; END IF;
  IF d.id IS NULL OR c.id IS NULL THEN RETURN QUERY SELECT 'missing', NULL::ledger_transfers; RETURN; END IF;
  IF d.currency <> p_currency OR c.currency <> p_currency THEN
    RETURN QUERY SELECT 'currency', NULL::ledger_transfers; RETURN;
  END IF;
  RETURN QUERY SELECT 'insufficient', NULL::ledger_transfers;
END
$$;

CREATE FUNCTION ledger_settle(
  p_hold uuid, p_outcome text, p_at timestamptz, note_sides text[], note_kinds text[], note_keys text[]
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  t ledger_transfers;
  moves bigint;
BEGIN
  SELECT * INTO t FROM ledger_transfers WHERE id = p_hold AND is_hold;
  IF NOT FOUND THEN RETURN QUERY SELECT 'missing', NULL::ledger_transfers; RETURN; END IF;
  PERFORM 1 FROM ledger_accounts WHERE id IN (t.debit_account_id, t.credit_account_id)
    ORDER BY id FOR NO KEY UPDATE;
  -- Under the accounts' locks no other settlement of this hold runs: read its status again.
  SELECT * INTO t FROM ledger_transfers WHERE id = p_hold FOR UPDATE;
  IF t.status = p_outcome THEN RETURN QUERY SELECT 'unchanged', t; RETURN; END IF;
  IF t.status <> 'pending' THEN RETURN QUERY SELECT 'settled', t; RETURN; END IF;

  UPDATE ledger_transfers SET status = p_outcome, settled_at = p_at WHERE id = p_hold RETURNING * INTO t;
  moves := CASE WHEN p_outcome = 'posted' THEN t.amount ELSE 0 END;
  PERFORM ledger_write_sides(t, CASE WHEN p_outcome = 'posted' THEN 'post' ELSE 'void' END, p_at,
    -moves, -t.amount, moves, -t.amount, note_sides, note_kinds, note_keys);
  RETURN QUERY SELECT 'changed', t;
END
$$;
