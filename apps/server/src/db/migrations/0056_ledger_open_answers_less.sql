-- A new transfer is answered by its outcome alone (issue 9). The caller made every value of it (the id,
-- the accounts, the amount, the key, the description, the time), so reading the row back cost
-- PostgreSQL the output of 14 columns (two times, a JSON document) and the server their parsing,
-- on every movement. A repeated key still answers with the first transfer as written, since the
-- caller must compare it with its request; refusals answer nothing, as before.
-- The rest is 0053's function unchanged. Measured in alternating ledger-only bench runs against 0055:
-- 2,782 and 2,840/s before, 2,769 and 3,084/s after (within this machine's noise); the hot account
-- 995 and 1,111/s before, 1,309 and 1,228/s after. `ledger.test.ts` checks that the answer equals
-- the row as stored, for a transfer and a hold.

CREATE OR REPLACE FUNCTION ledger_open(
  p_id uuid, p_debit uuid, p_credit uuid, p_amount bigint, p_currency text, p_kind text, p_is_hold boolean,
  p_key text, p_reference_type text, p_reference_id text, p_description jsonb, p_at timestamptz
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a record;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
  created boolean;
  repeated boolean := false;
BEGIN
  -- As in 0050: accounts locked in id order, the key looked up in the same statement.
  FOR a IN SELECT l AS account, EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = p_key) AS used
    FROM ledger_accounts l WHERE l.id IN (p_debit, p_credit) ORDER BY l.id FOR NO KEY UPDATE OF l LOOP
    IF (a.account).id = p_debit THEN d := a.account; ELSE c := a.account; END IF;
    repeated := repeated OR a.used;
  END LOOP;
  IF NOT repeated AND d.id IS NOT NULL AND c.id IS NOT NULL AND d.currency = p_currency AND c.currency = p_currency
     AND (d.user_id IS NULL OR d.balance - d.pending_debits >= p_amount) THEN
    -- As in 0052: the transfer, both balances and one entry per side, one statement.
    WITH ins AS (
      INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
        idempotency_key, reference_type, reference_id, description, created_at, settled_at)
      VALUES (p_id, p_debit, p_credit, p_amount, p_currency, p_kind, CASE WHEN p_is_hold THEN 'pending' ELSE 'posted' END,
        p_is_hold, p_key, p_reference_type, p_reference_id, p_description, p_at, CASE WHEN p_is_hold THEN NULL ELSE p_at END)
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id
    ), v (id, ord, d_bal, d_pd, d_pc, amount) AS (
      SELECT p_debit, 1, CASE WHEN p_is_hold THEN 0 ELSE -p_amount END,
        CASE WHEN p_is_hold THEN p_amount ELSE 0 END, 0::bigint, -p_amount FROM ins
      UNION ALL
      SELECT p_credit, 2, CASE WHEN p_is_hold THEN 0 ELSE p_amount END, 0::bigint,
        CASE WHEN p_is_hold THEN p_amount ELSE 0 END, p_amount FROM ins
    ), u AS (
      UPDATE ledger_accounts acc
      SET balance = acc.balance + v.d_bal, pending_debits = acc.pending_debits + v.d_pd,
          pending_credits = acc.pending_credits + v.d_pc, version = acc.version + 1
      FROM v WHERE acc.id = v.id
      RETURNING acc.id, acc.user_id, acc.balance, acc.pending_debits, acc.pending_credits, acc.version, v.ord, v.amount
    ), e AS (
      INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
        pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
      SELECT p_id, u.id, u.user_id, CASE WHEN p_is_hold THEN 'hold' ELSE 'single' END, u.amount, p_currency, p_kind,
        u.balance, u.pending_debits, u.pending_credits, u.version, p_at, p_at
      FROM u ORDER BY u.ord
    )
    SELECT true INTO created FROM ins;
    IF created THEN
      RETURN QUERY SELECT 'created', NULL::ledger_transfers;
      RETURN;
    END IF;
  END IF;
  -- Nothing written: a key used first answers with its first transfer before any refusal.
  SELECT * INTO t FROM ledger_transfers WHERE idempotency_key = p_key;
  IF FOUND THEN RETURN QUERY SELECT 'repeated', t; RETURN; END IF;
  IF d.id IS NULL OR c.id IS NULL THEN RETURN QUERY SELECT 'missing', NULL::ledger_transfers; RETURN; END IF;
  IF d.currency <> p_currency OR c.currency <> p_currency THEN
    RETURN QUERY SELECT 'currency', NULL::ledger_transfers; RETURN;
  END IF;
  RETURN QUERY SELECT 'insufficient', NULL::ledger_transfers;
END
$$;
