-- A payment writes its ledger movement in its own body (issue 9). `user_transfer` (0059) called
-- `ledger_open` for the movement: a nested PL/pgSQL call that sets up its own frame, evaluates its own
-- expressions, locks again the two accounts the payment already holds (a statement that writes nothing
-- but still starts an executor) and answers through RETURN QUERY, another executor. Measured with the
-- function alone driven by pgbench (10 clients, 200 users, 30,000 payments a run, the tables emptied
-- and a CHECKPOINT before each run, three alternating pairs): 257-274 µs of PostgreSQL CPU per payment
-- with the call, 239-251 µs with the movement written here, and 273-284 against 233-255 µs in a second
-- series. Skipping only the lock inside `ledger_open` (a flag for a caller that holds the rows) saved a
-- third of that; the call itself is the rest.
--
-- The movement is `ledger_open`'s for a posted transfer between two user accounts, written from the
-- rows this statement locked: the transfer (ON CONFLICT on its ledger key, as there), both balances and
-- versions and the sender's monthly figure (0058) in one UPDATE, one entry per side with the balances
-- after it. The available balance is checked here under the lock, the CHECK constraint backs it up.
-- `ledger_open`, `ledger_settle` and this function are the only writers of entries; a change to how
-- `ledger_open` writes a posted transfer changes this one too. `ledgerViolations`
-- (apps/server/test/fund.ts), run after every money test, checks what either wrote: the transfer's
-- accounts, sides, currency and kind on its entries, each account's balance, version and monthly
-- figure against its entries.
--
-- Answers are assigned to the output columns and returned with RETURN NEXT, not RETURN QUERY: no
-- executor for a constant row.

CREATE OR REPLACE FUNCTION user_transfer(
  p_sender uuid, p_sender_level text, p_recipient uuid, p_recipient_level text,
  p_currency text, p_amount bigint,
  p_outgoing_max bigint, p_month_start timestamptz, p_total_max bigint,
  p_id uuid, p_kind text, p_ledger_key text, p_description jsonb, p_at timestamptz,
  p_call text, p_key text, p_request_hash text, p_answer jsonb, p_pin_hash bytea
) RETURNS TABLE (outcome text, request_hash text, answer jsonb) LANGUAGE plpgsql AS $$
DECLARE
  k record;
  u record;
  d ledger_accounts;
  c ledger_accounts;
  matched int := 0;
  sent bigint;
  created boolean;
  counts boolean := ledger_counts_outgoing(p_kind, p_currency);
  v_month timestamptz := ledger_month(p_at);
BEGIN
  -- Each user's row, then its account in the currency, locked in user id order.
  FOR u IN SELECT p.id, p.identification_level, p.pin_hash = p_pin_hash AND p.pin_failures = 0
      AND p.pin_locked_until IS NULL AS proven, l AS account
    FROM users p JOIN ledger_accounts l ON l.user_id = p.id AND l.currency = p_currency
    WHERE p.id IN (p_sender, p_recipient) ORDER BY p.id FOR NO KEY UPDATE OF p, l LOOP
    IF u.id = p_sender AND u.identification_level = p_sender_level AND u.proven THEN
      matched := matched + 1;
      d := u.account;
    ELSIF u.id = p_recipient AND u.identification_level = p_recipient_level THEN
      matched := matched + 1;
      c := u.account;
    END IF;
  END LOOP;
  IF matched <> 2 THEN
    RAISE EXCEPTION 'user_transfer: the PIN is not proven, a level changed or an account is missing'
      USING ERRCODE = 'EW001';
  END IF;

  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (user_id, call, key, request_hash, answer, created_at)
    VALUES (p_sender, p_call, p_key, p_request_hash, p_answer, p_at)
    ON CONFLICT (user_id, call, key) DO NOTHING;
    IF NOT FOUND THEN
      SELECT i.request_hash, i.answer INTO k FROM idempotency_keys i
      WHERE i.user_id = p_sender AND i.call = p_call AND i.key = p_key;
      outcome := 'repeated';
      request_hash := k.request_hash;
      answer := k.answer;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  IF (p_outgoing_max IS NOT NULL OR p_total_max IS NOT NULL) AND p_currency <> 'RUB' THEN
    RAISE EXCEPTION 'user_transfer: limits of another currency' USING ERRCODE = 'EW001';
  END IF;
  -- The locked account's kept figure answers for the month it names (0058); any other case is
  -- `ledger_outgoing_rub`'s.
  IF p_outgoing_max IS NOT NULL THEN
    sent := CASE WHEN d.outgoing_month = p_month_start THEN d.outgoing_in_month
      ELSE ledger_outgoing_rub(p_sender, p_month_start) END;
    IF sent + p_amount > p_outgoing_max THEN
      RAISE EXCEPTION 'user_transfer: monthly limit' USING ERRCODE = 'EW001';
    END IF;
  END IF;
  IF p_total_max IS NOT NULL AND c.balance + c.pending_credits + p_amount > p_total_max THEN
    RAISE EXCEPTION 'user_transfer: balance cap' USING ERRCODE = 'EW001';
  END IF;
  IF d.balance - d.pending_debits < p_amount THEN
    RAISE EXCEPTION 'user_transfer: too little money' USING ERRCODE = 'EW001';
  END IF;

  -- `ledger_open`'s movement for a posted transfer, from the locked rows.
  WITH ins AS (
    INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
      idempotency_key, description, created_at, settled_at)
    VALUES (p_id, d.id, c.id, p_amount, p_currency, p_kind, 'posted', false, p_ledger_key, p_description, p_at, p_at)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  ), v (id, ord, amount, counted) AS (
    SELECT d.id, 1, -p_amount, counts FROM ins
    UNION ALL
    SELECT c.id, 2, p_amount, false FROM ins
  ), moved AS (
    UPDATE ledger_accounts acc
    SET balance = acc.balance + v.amount, version = acc.version + 1,
        outgoing_month = CASE WHEN v.counted AND (acc.outgoing_month IS NULL OR acc.outgoing_month < v_month)
          THEN v_month ELSE acc.outgoing_month END,
        outgoing_in_month = CASE WHEN NOT v.counted THEN acc.outgoing_in_month
          WHEN acc.outgoing_month = v_month THEN acc.outgoing_in_month + p_amount
          WHEN acc.outgoing_month IS NULL OR acc.outgoing_month < v_month THEN p_amount
          ELSE acc.outgoing_in_month END
    FROM v WHERE acc.id = v.id
    RETURNING acc.id, acc.user_id, acc.balance, acc.pending_debits, acc.pending_credits, acc.version, v.ord, v.amount
  ), e AS (
    INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
      pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
    SELECT p_id, moved.id, moved.user_id, 'single', moved.amount, p_currency, p_kind,
      moved.balance, moved.pending_debits, moved.pending_credits, moved.version, p_at, p_at
    FROM moved ORDER BY moved.ord
  )
  SELECT true INTO created FROM ins;
  IF created IS NULL THEN
    -- The ledger key is made of the payment's new id: a used one is a defect, decided the long way.
    RAISE EXCEPTION 'user_transfer: the ledger key is used' USING ERRCODE = 'EW001';
  END IF;
  outcome := 'created';
  RETURN NEXT;
END
$$;
