-- The monthly limit's figure kept on the account, so checking it is one row read (issue 9).
-- `ledger_outgoing_rub` summed a user's entries since the month's start: an index range that grows
-- with the user's payments this month, whose fresh entries' pages are not yet all-visible, so each one
-- cost a heap fetch. In a P2P run it read 130 buffers and took 0.16 of the payment's 0.85 ms.
--
-- A user's RUB account now keeps `outgoing_month` (the latest calendar month, Moscow time, in which
-- money left it by withdrawal, transfer or payment) and `outgoing_in_month` (what left in that
-- month: every such debit, pending holds included, less the holds of that month voided since). The
-- ledger's functions write both in the same UPDATE that moves the balance, so it costs no statement:
--   ledger_open   a counted debit of month M: M after the stored month starts the count again,
--                 M equal to it adds; an earlier M (a clock set back) leaves the count alone
--   ledger_settle a void of a counted hold opened in the stored month takes it back off
-- `ledger_outgoing_rub(user, since)` answers from the account when `since` is that month's start (the
-- limits' question) or nothing was ever counted, and sums the entries as before otherwise.
-- `ledgerViolations` (apps/server/test/fund.ts), run after every money test, checks the kept figure
-- against the sum of the entries.

-- The start of the calendar month of a time, Moscow time (UTC+3 all year since 2014): the same instant
-- as `monthStart` in apps/server/src/modules/identification/levels.ts (a test compares the two).
CREATE FUNCTION ledger_month(p_at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (date_trunc('month', (p_at AT TIME ZONE 'UTC') + interval '3 hours') - interval '3 hours') AT TIME ZONE 'UTC'
$$;

-- Whether a debit of this kind and currency counts toward the monthly limit (inlined where it is used).
CREATE FUNCTION ledger_counts_outgoing(p_kind text, p_currency text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_currency = 'RUB' AND p_kind IN ('withdrawal', 'transfer', 'payment')
$$;

ALTER TABLE ledger_accounts
  ADD COLUMN outgoing_month timestamptz,
  ADD COLUMN outgoing_in_month bigint NOT NULL DEFAULT 0;

-- What the entries say, for the accounts that have any counted debit.
WITH counted AS (
  SELECT account_id, ledger_month(opened_at) AS month,
    CASE WHEN phase = 'void' THEN amount ELSE -amount END AS delta
  FROM ledger_entries
  WHERE user_id IS NOT NULL AND amount < 0 AND phase IN ('single', 'hold', 'void')
    AND ledger_counts_outgoing(kind, currency)
), latest AS (
  SELECT account_id, max(month) AS month FROM counted GROUP BY account_id
)
UPDATE ledger_accounts a
SET outgoing_month = l.month,
    outgoing_in_month = (SELECT sum(c.delta) FROM counted c WHERE c.account_id = l.account_id AND c.month = l.month)
FROM latest l WHERE a.id = l.account_id;

CREATE OR REPLACE FUNCTION ledger_outgoing_rub(p_user uuid, p_since timestamptz) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_month timestamptz;
  v_amount bigint;
BEGIN
  SELECT outgoing_month, outgoing_in_month INTO v_month, v_amount
  FROM ledger_accounts WHERE user_id = p_user AND currency = 'RUB';
  IF NOT FOUND OR v_month IS NULL THEN RETURN 0; END IF;
  IF v_month = p_since THEN RETURN v_amount; END IF;
  -- Any other time: debits opened since it (posted or pending) less those released, one index range.
  RETURN (SELECT coalesce(sum(CASE WHEN phase = 'void' THEN amount ELSE -amount END), 0)::bigint
    FROM ledger_entries
    WHERE user_id = p_user AND amount < 0 AND phase IN ('single', 'hold', 'void') AND opened_at >= p_since
      AND ledger_counts_outgoing(kind, currency));
END
$$;

-- 0056's function, with the count kept in the balances' UPDATE.
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
  counts boolean := ledger_counts_outgoing(p_kind, p_currency);
  v_month timestamptz := ledger_month(p_at);
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
    ), v (id, ord, d_bal, d_pd, d_pc, amount, counted) AS (
      SELECT p_debit, 1, CASE WHEN p_is_hold THEN 0 ELSE -p_amount END,
        CASE WHEN p_is_hold THEN p_amount ELSE 0 END, 0::bigint, -p_amount, counts FROM ins
      UNION ALL
      SELECT p_credit, 2, CASE WHEN p_is_hold THEN 0 ELSE p_amount END, 0::bigint,
        CASE WHEN p_is_hold THEN p_amount ELSE 0 END, p_amount, false FROM ins
    ), u AS (
      UPDATE ledger_accounts acc
      SET balance = acc.balance + v.d_bal, pending_debits = acc.pending_debits + v.d_pd,
          pending_credits = acc.pending_credits + v.d_pc, version = acc.version + 1,
          outgoing_month = CASE WHEN v.counted AND acc.user_id IS NOT NULL
            AND (acc.outgoing_month IS NULL OR acc.outgoing_month < v_month) THEN v_month ELSE acc.outgoing_month END,
          outgoing_in_month = CASE WHEN NOT v.counted OR acc.user_id IS NULL THEN acc.outgoing_in_month
            WHEN acc.outgoing_month = v_month THEN acc.outgoing_in_month + p_amount
            WHEN acc.outgoing_month IS NULL OR acc.outgoing_month < v_month THEN p_amount
            ELSE acc.outgoing_in_month END
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

-- 0053's function, with a void of a counted hold taken off the count of the month it was opened in.
CREATE OR REPLACE FUNCTION ledger_write_sides(
  t ledger_transfers, phase text, at timestamptz,
  d_balance bigint, d_pending_debits bigint, c_balance bigint, c_pending_credits bigint
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  released boolean := phase = 'void' AND ledger_counts_outgoing(t.kind, t.currency);
  v_month timestamptz := ledger_month(t.created_at);
BEGIN
  WITH v (id, ord, d_bal, d_pd, d_pc, amount) AS (
    VALUES (t.debit_account_id, 1, d_balance, d_pending_debits, 0::bigint, -t.amount),
           (t.credit_account_id, 2, c_balance, 0::bigint, c_pending_credits, t.amount)
  ), u AS (
    UPDATE ledger_accounts a
    SET balance = a.balance + v.d_bal, pending_debits = a.pending_debits + v.d_pd,
        pending_credits = a.pending_credits + v.d_pc, version = a.version + 1,
        outgoing_in_month = CASE WHEN released AND v.ord = 1 AND a.user_id IS NOT NULL AND a.outgoing_month = v_month
          THEN a.outgoing_in_month - t.amount ELSE a.outgoing_in_month END
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
