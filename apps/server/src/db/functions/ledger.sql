-- The ledger's functions (docs/architecture.md 'Ledger'). `ledger_move` is the one writer of transfers,
-- entries and balances; the doors that call it decide whether a movement may happen:
--   ledger_open    a transfer or a hold between two accounts (top-up credits, test funding)
--   ledger_settle  a hold posted or voided, once
--   ledger_pay     a person's money call, with every rule of the limits (payments.sql)
--   ops_refund     an operator's correcting transfer under four eyes (ops.sql)
-- One lock order for every door, so no two of them wait on each other: people's accounts first, in
-- the order of their user ids (ledger_pay takes each user's row with their account), then system
-- accounts in id order; all FOR NO KEY UPDATE, before anything is written. A transfer's id is its
-- key: ledger_open's is made of the caller's idempotency key (ledger/index.ts), so a used key answers
-- its first transfer and moves nothing; a person's call is keyed by idempotency.sql. A user's available
-- money never goes below zero (checked by each door, backed by the accounts' CHECK constraint).

-- Ledger rows are never deleted; a transfer changes only by settling its hold, once.
CREATE OR REPLACE FUNCTION ledger_transfers_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'ledger transfers are immutable' USING ERRCODE = 'P0001';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
     OR (NEW.id, NEW.debit_account_id, NEW.credit_account_id, NEW.amount, NEW.currency, NEW.kind,
         NEW.is_hold, NEW.reference_type, NEW.reference_id, NEW.description,
         NEW.created_at)
        IS DISTINCT FROM
        (OLD.id, OLD.debit_account_id, OLD.credit_account_id, OLD.amount, OLD.currency, OLD.kind,
         OLD.is_hold, OLD.reference_type, OLD.reference_id, OLD.description,
         OLD.created_at) THEN
    RAISE EXCEPTION 'ledger transfers are immutable' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER ledger_transfers_guard BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_guard();

CREATE OR REPLACE FUNCTION ledger_entries_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are immutable' USING ERRCODE = 'P0001';
END
$$;
CREATE OR REPLACE TRIGGER ledger_entries_guard BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_guard();

-- Transfers and entries carry no foreign keys to their accounts, so an account must never go away
-- nor change its id, owner or currency. The second trigger fires only on those columns, never on a
-- balance's update.
CREATE OR REPLACE FUNCTION ledger_accounts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger accounts are never deleted' USING ERRCODE = 'P0001';
END
$$;
CREATE OR REPLACE TRIGGER ledger_accounts_guard BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_guard();

CREATE OR REPLACE FUNCTION ledger_accounts_identity_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id <> OLD.id OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.currency <> OLD.currency THEN
    RAISE EXCEPTION 'a ledger account keeps its id, owner and currency' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER ledger_accounts_identity_guard BEFORE UPDATE OF id, user_id, currency ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_identity_guard();

-- The id of the transfer a caller's idempotency key opens (ledger_open, a round-up's in goals.sql): the
-- key's digest, so the transfers' primary key is the key's store and a transfer carries no key of its own.
CREATE OR REPLACE FUNCTION ledger_key_id(key text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT md5(key)::uuid
$$;

-- The money an account can send now: its balance less what its holds keep. The one definition, asked by
-- every door (and by the accounts' CHECK constraint's twin in the table, which backs it up).
CREATE OR REPLACE FUNCTION ledger_available(account ledger_accounts) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT account.balance - account.pending_debits
$$;

-- Writes one step of a movement whose accounts the caller has locked and checked, in one statement:
-- for an opening step ('single' or 'hold') the transfer itself (a plain insert: a used id is an error,
-- which ledger_open asks about first; a speculative insert cost every movement a WAL record), then both accounts' balances and versions and one entry
-- per side with the balances after it, and the people's live events (as the one writer of entries,
-- it tells them itself: a trigger's transition table cost every movement more; docs/performance.md#the-ledgers-movement). The debit account's monthly figure (limits.sql) moves in the
-- same UPDATE: a counted debit of a later month starts it again, of the kept month adds to it, and a
-- void of a hold opened in the kept month takes it back. The transfer comes as its columns (t_...):
-- a composite argument cost a conversion and its domain checks on every call (docs/performance.md#the-ledgers-movement).
DROP FUNCTION IF EXISTS ledger_move(ledger_transfers, text, timestamptz);
DROP FUNCTION IF EXISTS ledger_move(uuid, uuid, uuid, bigint, text, text, text, boolean, text, text, text, jsonb,
  timestamptz, timestamptz, text, timestamptz);
CREATE OR REPLACE FUNCTION ledger_move(
  t_id uuid, t_debit uuid, t_credit uuid, t_amount bigint, t_currency text, t_kind text, t_status text,
  t_is_hold boolean, t_reference_type text, t_reference_id text, t_description jsonb,
  t_created_at timestamptz, t_settled_at timestamptz, step text, at timestamptz
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  -- Signed changes of the posted and the held money, as the debit side sees them.
  posted bigint := CASE WHEN step IN ('single', 'post') THEN t_amount ELSE 0 END;
  held bigint := CASE step WHEN 'hold' THEN t_amount WHEN 'single' THEN 0 ELSE -t_amount END;
  counted bigint := CASE WHEN NOT limits_counts_outgoing(t_kind, t_currency) OR step = 'post' THEN 0
    WHEN step = 'void' THEN -t_amount ELSE t_amount END;
  month timestamptz := limits_month(t_created_at);
  entries int;
  watched bigint[];
BEGIN
  WITH opened AS (
    INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
      reference_type, reference_id, description, created_at, settled_at)
    SELECT t_id, t_debit, t_credit, t_amount, t_currency, t_kind, t_status, t_is_hold, t_reference_type,
      t_reference_id, t_description, t_created_at, t_settled_at
    WHERE step IN ('single', 'hold')
    RETURNING id
  ), side (account_id, ord, posted_change, debits_change, credits_change, entry_amount, counted_change) AS (
    SELECT * FROM (VALUES (t_debit, 1, -posted, held, 0::bigint, -t_amount, counted),
                          (t_credit, 2, posted, 0::bigint, held, t_amount, 0::bigint)) v
    WHERE step IN ('post', 'void') OR EXISTS (SELECT 1 FROM opened)
  ), changed AS (
    UPDATE ledger_accounts a
    SET balance = a.balance + s.posted_change,
        pending_debits = a.pending_debits + s.debits_change,
        pending_credits = a.pending_credits + s.credits_change,
        version = a.version + 1,
        outgoing_month = CASE WHEN s.counted_change > 0 AND a.user_id IS NOT NULL
          AND (a.outgoing_month IS NULL OR a.outgoing_month < month) THEN month ELSE a.outgoing_month END,
        outgoing_in_month = CASE WHEN s.counted_change = 0 OR a.user_id IS NULL THEN a.outgoing_in_month
          WHEN a.outgoing_month = month THEN a.outgoing_in_month + s.counted_change
          WHEN s.counted_change > 0 AND (a.outgoing_month IS NULL OR a.outgoing_month < month) THEN s.counted_change
          ELSE a.outgoing_in_month END
    FROM side s WHERE a.id = s.account_id
    RETURNING a.id, a.user_id, a.balance, a.pending_debits, a.version, s.ord, s.entry_amount
  ), added AS (
    INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
      pending_debits_after, account_version, created_at, opened_at)
    SELECT t_id, c.id, c.user_id, step, c.entry_amount, t_currency, t_kind, c.balance,
      -- Never written before its transfer opened (instances' clocks differ by a little): readers range
      -- the one person's index by the writing time from the opening time (migration 0470).
      c.pending_debits, c.version, greatest(at, t_created_at), t_created_at
    FROM changed c ORDER BY c.ord
    RETURNING id, user_id
  )
  -- Most entries are of people nobody watches: two index probes each, and the live wallet's work
  -- (wallet_events.sql) only for the entries of people someone listens to or a push is due for.
  SELECT count(*), array_agg(a.id) FILTER (WHERE a.user_id IS NOT NULL
      AND (EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = a.user_id)
        OR EXISTS (SELECT 1 FROM wallet_event_listeners l WHERE l.user_id = a.user_id)))
  INTO entries, watched
  FROM added a;
  IF watched IS NOT NULL THEN
    PERFORM wallet_events_tell_entries(watched);
  END IF;
  RETURN entries > 0;
END
$$;

-- A transfer (posted at once) or a hold (pending) between two accounts of one currency, its id made of
-- the caller's idempotency key. Answers
--   created | repeated (with the key's first transfer, before any refusal) | missing | currency | insufficient
DROP FUNCTION IF EXISTS ledger_open(uuid, uuid, uuid, bigint, text, text, boolean, text, text, text, jsonb, timestamptz);
CREATE OR REPLACE FUNCTION ledger_open(
  debit uuid, credit uuid, amount bigint, currency text, kind text, hold boolean,
  idempotency_key text, reference_type text, reference_id text, description jsonb, at timestamptz
) RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  transfer_id uuid := ledger_key_id(idempotency_key);
  account ledger_accounts;
  debit_account ledger_accounts;
  credit_account ledger_accounts;
BEGIN
  FOR account IN SELECT * FROM ledger_accounts a WHERE a.id IN (debit, credit)
      ORDER BY a.user_id IS NULL, a.user_id, a.id FOR NO KEY UPDATE LOOP
    IF account.id = debit THEN debit_account := account; ELSE credit_account := account; END IF;
  END LOOP;
  IF debit_account.id IS NOT NULL AND credit_account.id IS NOT NULL
     AND debit_account.currency = currency AND credit_account.currency = currency
     AND (debit_account.user_id IS NULL OR ledger_available(debit_account) >= amount)
     -- Under the accounts' locks a call with the same key has committed or not begun (a key is the
     -- server's own, made for one movement between the same accounts).
     AND NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = transfer_id) THEN
    IF ledger_move(transfer_id, debit, credit, amount, currency, kind, CASE WHEN hold THEN 'pending' ELSE 'posted' END,
        hold, reference_type, reference_id, description, at, CASE WHEN hold THEN NULL ELSE at END,
        CASE WHEN hold THEN 'hold' ELSE 'single' END, at) THEN
      outcome := 'created';
      moved.id := transfer_id;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  -- Nothing written: a used key answers its first transfer before any refusal.
  SELECT * INTO moved FROM ledger_transfers t WHERE t.id = transfer_id;
  outcome := CASE
    WHEN moved.id IS NOT NULL THEN 'repeated'
    WHEN debit_account.id IS NULL OR credit_account.id IS NULL THEN 'missing'
    WHEN debit_account.currency <> currency OR credit_account.currency <> currency THEN 'currency'
    ELSE 'insufficient' END;
  RETURN NEXT;
END
$$;

-- Settles a hold as 'posted' (the money moves) or 'voided' (it returns). Answers
--   changed | unchanged (already settled this way) | settled (the other way) | missing
CREATE OR REPLACE FUNCTION ledger_settle(hold_id uuid, settle_as text, at timestamptz)
RETURNS TABLE (outcome text, moved ledger_transfers) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
BEGIN
  SELECT * INTO moved FROM ledger_transfers t WHERE t.id = hold_id AND t.is_hold;
  IF NOT FOUND THEN
    outcome := 'missing';
    RETURN NEXT;
    RETURN;
  END IF;
  PERFORM 1 FROM ledger_accounts a WHERE a.id IN (moved.debit_account_id, moved.credit_account_id)
    ORDER BY a.user_id IS NULL, a.user_id, a.id FOR NO KEY UPDATE;
  -- Under the accounts' locks no other settlement of this hold runs: its status is read again.
  SELECT * INTO moved FROM ledger_transfers t WHERE t.id = hold_id FOR UPDATE;
  IF moved.status <> 'pending' THEN
    outcome := CASE WHEN moved.status = settle_as THEN 'unchanged' ELSE 'settled' END;
    RETURN NEXT;
    RETURN;
  END IF;
  UPDATE ledger_transfers t SET status = settle_as, settled_at = at WHERE t.id = hold_id RETURNING * INTO moved;
  PERFORM ledger_move(moved.id, moved.debit_account_id, moved.credit_account_id, moved.amount, moved.currency,
    moved.kind, moved.status, moved.is_hold, moved.reference_type, moved.reference_id,
    moved.description, moved.created_at, moved.settled_at, CASE WHEN settle_as = 'posted' THEN 'post' ELSE 'void' END, at);
  outcome := 'changed';
  RETURN NEXT;
END
$$;
