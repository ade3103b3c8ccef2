-- A payment from one wallet user to another in one statement (issue 9). The transfer call and QR
-- payments to a user made seven round trips in a transaction (BEGIN, the idempotency key claimed, both
-- users locked, the limits' figures read, the ledger's statement, the answer stored, COMMIT); on this
-- two-core machine each round trip costs both processes a loopback write and a wake-up, and a P2P run
-- spent half of the server's CPU in `writev`. `user_transfer` does the same work, in the same order,
-- inside one statement:
--
--   1. the idempotency key claimed with the answer the call will give (a repeat answers with the
--      first call's fingerprint and answer, and writes nothing);
--   2. both users' rows locked in id order (FOR NO KEY UPDATE, as `lockUsers`), their levels compared
--      with those the caller read before;
--   3. the limits the caller derived from those levels compared with the figures, read after the
--      locks: the sender's RUB outgoing this month, the recipient's RUB total;
--   4. the ledger's own `ledger_open` between the two users' accounts in the currency.
--
-- The rules stay in TypeScript (modules/identification): this function only compares figures with
-- the bounds it is given. Whatever it cannot prove (a level changed, a limit reached, an account
-- missing, too little money) it refuses with SQLSTATE EW001, which rolls the whole statement back;
-- the server then runs the call's transaction step by step, which decides it and names the error.

-- The two figures of the limits, defined once: the server's `outgoingSql` and `rubTotalSql` call them.
-- PL/pgSQL, so each session plans the query once.

-- RUB that left a user since a time: withdrawals, transfers and payments out, pending holds included,
-- released holds not (one index-only range of ledger_entries_user_opened).
CREATE FUNCTION ledger_outgoing_rub(p_user uuid, p_since timestamptz) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(sum(CASE WHEN phase = 'void' THEN amount ELSE -amount END), 0)::bigint
    FROM ledger_entries
    WHERE user_id = p_user AND amount < 0 AND phase IN ('single', 'hold', 'void') AND opened_at >= p_since
      AND currency = 'RUB' AND kind IN ('withdrawal', 'transfer', 'payment'));
END
$$;

-- A user's RUB money for the balance cap: posted balance plus money on its way in.
CREATE FUNCTION ledger_rub_total(p_user uuid) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN coalesce((SELECT (balance + pending_credits)::bigint FROM ledger_accounts
    WHERE user_id = p_user AND currency = 'RUB'), 0);
END
$$;

CREATE FUNCTION user_transfer(
  p_sender uuid, p_sender_level text, p_recipient uuid, p_recipient_level text,
  p_currency text, p_amount bigint,
  p_outgoing_max bigint, p_month_start timestamptz, p_total_max bigint,
  p_id uuid, p_kind text, p_ledger_key text, p_description jsonb, p_at timestamptz,
  p_call text, p_key text, p_request_hash text, p_answer jsonb
) RETURNS TABLE (outcome text, request_hash text, answer jsonb) LANGUAGE plpgsql AS $$
DECLARE
  k record;
  u record;
  matched int := 0;
  v_debit uuid;
  v_credit uuid;
  opened text;
BEGIN
  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (user_id, call, key, request_hash, answer, created_at)
    VALUES (p_sender, p_call, p_key, p_request_hash, p_answer, p_at)
    ON CONFLICT (user_id, call, key) DO NOTHING;
    IF NOT FOUND THEN
      SELECT i.request_hash, i.answer INTO k FROM idempotency_keys i
      WHERE i.user_id = p_sender AND i.call = p_call AND i.key = p_key;
      RETURN QUERY SELECT 'repeated', k.request_hash, k.answer;
      RETURN;
    END IF;
  END IF;

  FOR u IN SELECT id, identification_level FROM users WHERE id IN (p_sender, p_recipient)
    ORDER BY id FOR NO KEY UPDATE LOOP
    IF u.identification_level = (CASE WHEN u.id = p_sender THEN p_sender_level ELSE p_recipient_level END) THEN
      matched := matched + 1;
    END IF;
  END LOOP;
  IF matched <> 2 THEN
    RAISE EXCEPTION 'user_transfer: a level changed' USING ERRCODE = 'EW001';
  END IF;
  IF p_outgoing_max IS NOT NULL AND ledger_outgoing_rub(p_sender, p_month_start) + p_amount > p_outgoing_max THEN
    RAISE EXCEPTION 'user_transfer: monthly limit' USING ERRCODE = 'EW001';
  END IF;
  IF p_total_max IS NOT NULL AND ledger_rub_total(p_recipient) + p_amount > p_total_max THEN
    RAISE EXCEPTION 'user_transfer: balance cap' USING ERRCODE = 'EW001';
  END IF;

  SELECT id INTO v_debit FROM ledger_accounts WHERE user_id = p_sender AND currency = p_currency;
  SELECT id INTO v_credit FROM ledger_accounts WHERE user_id = p_recipient AND currency = p_currency;
  IF v_debit IS NULL OR v_credit IS NULL THEN
    RAISE EXCEPTION 'user_transfer: an account is missing' USING ERRCODE = 'EW001';
  END IF;
  SELECT o.outcome INTO opened FROM ledger_open(p_id, v_debit, v_credit, p_amount, p_currency, p_kind, false,
    p_ledger_key, NULL, NULL, p_description, p_at) o;
  IF opened <> 'created' THEN
    RAISE EXCEPTION 'user_transfer: %', opened USING ERRCODE = 'EW001';
  END IF;
  RETURN QUERY SELECT 'created', NULL::text, NULL::jsonb;
END
$$;
