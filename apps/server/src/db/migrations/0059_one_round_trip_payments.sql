-- Fewer statements per payment (issue 9). A P2P run spent a fifth of PostgreSQL's time starting
-- executors (ExecutorStart) and a tenth in the after-trigger queue of foreign-key checks: each
-- statement inside a PL/pgSQL function, and each check, builds its executor anew.
--
-- 1. `user_transfer` read each account four times: the sender's monthly figure
--    (`ledger_outgoing_rub`), the recipient's RUB total (`ledger_rub_total`), both accounts' ids, then
--    `ledger_open` locked them again with a lookup of the ledger key (always fresh here). It now locks
--    each user's row with their account in the payment's currency, in one statement, in user id order
--    (every other path locks the users first, in that order, so no lock cycle forms), and compares the
--    figures of those locked rows: a RUB payment's accounts are the accounts the limits count; then it
--    calls `ledger_open`, whose lock of rows its own transaction holds writes nothing. `ledger_open`
--    no longer looks the ledger key up beside its locks (below).
-- 2. The entries' foreign keys are checked four times per movement and cannot fail: the ledger's
--    functions are the only writers, and they write a movement's entries in the statement that inserts
--    its transfer (or settles one read under lock), from the account rows that statement updates.
--    The transfer's own keys to its accounts (with the currency) stay. What the two keys checked,
--    every entry's transfer exists and the entry is on one of its accounts in its currency, is checked
--    after every money test by `ledgerViolations` (apps/server/test/fund.ts) and after every ledger
--    benchmark; ledger rows are never deleted (transfers and entries by their guards, accounts below).
-- 3. A payment in one round trip. Each P2P transfer made three: the recipient by phone and the signer's
--    PIN row (batched reads), then `user_transfer`; a write to PostgreSQL over loopback TCP costs the
--    server more than anything else it does for a request (`writev` was 46% of its CPU in a P2P run).
--    The server now keeps hints of both people (db/hints.ts: the recipient by phone; the signer's
--    name, level and PIN salt, never the hash) and sends the HMAC of the PIN given, made with the
--    remembered salt. `user_transfer` proves the PIN itself: the sender's stored hash must equal it,
--    with no wrong PIN counted and no lock, read under the sender's row lock with both levels, before
--    the idempotency key is claimed, so a repeated key answers only a proven PIN, as the first call
--    did (and the key's foreign key finds the sender's row already locked: no lock of its own to
--    write). Anything else refuses with EW001; the server forgets its hints and takes the long way
--    (`checkPin`, which counts a wrong PIN, then the transaction of separate steps), so a stale hint
--    (a PIN changed, a level raised on another instance) costs one refused statement, never a wrong
--    answer. The long way claims the key before the users: the same call sent twice at once, one on
--    each way, can deadlock; PostgreSQL ends one, and either recovers (this statement by the long
--    way, the transaction by its retry).

ALTER TABLE ledger_entries
  DROP CONSTRAINT ledger_entries_transfer_id_fkey,
  DROP CONSTRAINT ledger_entries_account_id_fkey;

-- Accounts are never deleted: the entries' key no longer guards them, this does.
CREATE FUNCTION ledger_accounts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger accounts are never deleted' USING ERRCODE = 'P0001';
END
$$;
CREATE TRIGGER ledger_accounts_guard BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_guard();

-- 0058's function without the key's lookup beside the locks: the transfer's insert finds a used key
-- (ON CONFLICT DO NOTHING, as before, which also catches a key committed during the lock wait), and
-- whatever writes nothing reads the key first, so a repeat still answers its first transfer before
-- any refusal. Alternating ledger-only runs: 3,824-4,393/s before, 4,133-5,101/s after.
CREATE OR REPLACE FUNCTION ledger_open(
  p_id uuid, p_debit uuid, p_credit uuid, p_amount bigint, p_currency text, p_kind text, p_is_hold boolean,
  p_key text, p_reference_type text, p_reference_id text, p_description jsonb, p_at timestamptz
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
DECLARE
  a ledger_accounts;
  d ledger_accounts;
  c ledger_accounts;
  t ledger_transfers;
  created boolean;
  counts boolean := ledger_counts_outgoing(p_kind, p_currency);
  v_month timestamptz := ledger_month(p_at);
BEGIN
  -- Accounts locked in id order.
  FOR a IN SELECT * FROM ledger_accounts WHERE id IN (p_debit, p_credit) ORDER BY id FOR NO KEY UPDATE LOOP
    IF a.id = p_debit THEN d := a; ELSE c := a; END IF;
  END LOOP;
  IF d.id IS NOT NULL AND c.id IS NOT NULL AND d.currency = p_currency AND c.currency = p_currency
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

-- 0057's function, then: the users locked with their accounts and the PIN proven (1, 3), the key
-- claimed, the limits compared with the accounts' rows (1), the ledger's `ledger_open`. The bounds come
-- only with RUB payments (the limits count roubles); any other call with bounds is refused to the long
-- way, which reads the RUB figures itself.

DROP FUNCTION user_transfer(uuid, text, uuid, text, text, bigint, bigint, timestamptz, bigint, uuid, text, text,
  jsonb, timestamptz, text, text, text, jsonb);

CREATE FUNCTION user_transfer(
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
  opened text;
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
      RETURN QUERY SELECT 'repeated', k.request_hash, k.answer;
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
  -- Too little money is the ledger's refusal, as any other of its outcomes but 'created'.
  SELECT o.outcome INTO opened FROM ledger_open(p_id, d.id, c.id, p_amount, p_currency, p_kind, false,
    p_ledger_key, NULL, NULL, p_description, p_at) o;
  IF opened <> 'created' THEN
    RAISE EXCEPTION 'user_transfer: %', opened USING ERRCODE = 'EW001';
  END IF;
  RETURN QUERY SELECT 'created', NULL::text, NULL::jsonb;
END
$$;
