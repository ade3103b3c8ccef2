-- Money notifications are read from the ledger's entries instead of written beside them (issue 9).
-- Until now every movement also inserted a notification row per user side: 2 of a transfer's 7
-- rows, 6 of its 19 index insertions and 2 of its 8 foreign-key checks, for a copy of what the
-- entry already holds (user, kind, amount, currency, time). Measured with alternating 10 s
-- ledger-only runs (10,000 accounts, 10 workers): 1,584-2,268 -> 2,289-2,959 transfers/s, the
-- PostgreSQL CPU per transfer 605-761 -> 466-607 us.
--
-- Which entries notify (apps/server/src/modules/notifications/service.ts, NOTICE_ENTRY, states the
-- same predicate, and the index below is only used when a query repeats it word for word):
--   a plain transfer ('single')  both sides: money out of the payer, money into the payee;
--   a hold ('hold')              the payer: the money has left (debit side, amount < 0);
--   its posting ('post')         the payee: the money has arrived (credit side, amount > 0);
--   its release ('void')         the payer: the money is back (debit side, amount < 0).
-- System accounts (user_id null) hear nothing. A notice's read mark is a row of notification_reads.

CREATE INDEX ledger_entries_user_notices ON ledger_entries (user_id, created_at, id)
  WHERE user_id IS NOT NULL
    AND (phase = 'single' OR (phase IN ('hold', 'void') AND amount < 0) OR (phase = 'post' AND amount > 0));

CREATE TABLE notification_reads (
  user_id uuid NOT NULL REFERENCES users (id),
  entry_id bigint NOT NULL REFERENCES ledger_entries (id),
  read_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, entry_id)
);

-- The read marks of the money notifications written so far move to their entries (same user, time,
-- amount and currency, a notifying entry), then those rows go: the entries tell the same.
INSERT INTO notification_reads (user_id, entry_id, read_at)
SELECT DISTINCT ON (e.id) n.user_id, e.id, n.read_at
FROM notifications n
JOIN ledger_entries e ON e.user_id = n.user_id AND e.created_at = n.created_at
  AND abs(e.amount)::text = n.params ->> 'amount_minor' AND e.currency = n.params ->> 'currency'
  AND (e.phase = 'single' OR (e.phase IN ('hold', 'void') AND e.amount < 0) OR (e.phase = 'post' AND e.amount > 0))
WHERE n.kind IN ('money_in', 'money_out') AND n.read_at IS NOT NULL
ORDER BY e.id, n.read_at;
DELETE FROM notifications WHERE kind IN ('money_in', 'money_out');

-- The ledger's functions without the notification arrays (0050, 0052): the same rules, one CTE less.
DROP FUNCTION ledger_open(uuid, uuid, uuid, bigint, text, text, boolean, text, text, text, jsonb, timestamptz,
  text[], text[], text[]);
DROP FUNCTION ledger_settle(uuid, text, timestamptz, text[], text[], text[]);
DROP FUNCTION ledger_write_sides(ledger_transfers, text, timestamptz, bigint, bigint, bigint, bigint,
  text[], text[], text[]);

-- Both balances and one entry per side with the balances after it, in one statement (a settlement).
CREATE FUNCTION ledger_write_sides(
  t ledger_transfers, phase text, at timestamptz,
  d_balance bigint, d_pending_debits bigint, c_balance bigint, c_pending_credits bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH v (id, ord, d_bal, d_pd, d_pc, amount) AS (
    VALUES (t.debit_account_id, 1, d_balance, d_pending_debits, 0::bigint, -t.amount),
           (t.credit_account_id, 2, c_balance, 0::bigint, c_pending_credits, t.amount)
  ), u AS (
    UPDATE ledger_accounts a
    SET balance = a.balance + v.d_bal, pending_debits = a.pending_debits + v.d_pd,
        pending_credits = a.pending_credits + v.d_pc, version = a.version + 1
    FROM v WHERE a.id = v.id
    RETURNING a.id, a.user_id, a.balance, a.pending_debits, a.pending_credits, a.version, v.ord, v.amount
  )
  INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
    pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
  SELECT t.id, u.id, u.user_id, phase, u.amount, t.currency, t.kind, u.balance, u.pending_debits,
    u.pending_credits, u.version, at, t.created_at
  FROM u ORDER BY u.ord;
END
$$;

CREATE FUNCTION ledger_open(
  p_id uuid, p_debit uuid, p_credit uuid, p_amount bigint, p_currency text, p_kind text, p_is_hold boolean,
  p_key text, p_reference_type text, p_reference_id text, p_description jsonb, p_at timestamptz
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a record;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
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
      RETURNING *
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
    SELECT * INTO t FROM ins;
    IF FOUND THEN
      RETURN QUERY SELECT 'created', t;
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

CREATE FUNCTION ledger_settle(p_hold uuid, p_outcome text, p_at timestamptz)
RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
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
    -moves, -t.amount, moves, -t.amount);
  RETURN QUERY SELECT 'changed', t;
END
$$;
