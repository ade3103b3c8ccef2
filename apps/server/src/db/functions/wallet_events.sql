-- The live wallet (migration 0200, docs/decisions/live-wallet.md#the-live-wallet), so every door to money and
-- every notification is covered without a second writer:
-- - a person's ledger entry is an event as it is: its one writer, ledger_move (ledger.sql), asks
--   wallet_events_tell_entries (below) when an instance holds the person's streams
--   (wallet_event_listeners) or the person has a push subscription;
-- - a stored notification gets the person's next event number (wallet_events) by a trigger, then the same.
-- NOTIFY serialises the commits of the transactions that send it, so money nobody watches sends none.
CREATE OR REPLACE FUNCTION wallet_event_tell(p_user uuid, p_kind text, p_ref text, p_push boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_push AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = p_user) THEN
    INSERT INTO push_due (user_id, kind, ref) VALUES (p_user, p_kind, p_ref);
    PERFORM wallet_event_notify(p_user, true);
  ELSIF EXISTS (SELECT 1 FROM wallet_event_listeners l WHERE l.user_id = p_user) THEN
    PERFORM wallet_event_notify(p_user, false);
  END IF;
END
$$;

-- Whether a person's ledger entry is a notification (money in or out), decided here for the entries'
-- events below and for the notifications' reads (modules/notifications): a plain transfer tells both
-- sides, a hold tells the payer (the money has left), its posting tells the payee, its release tells
-- the payer the money is back. Inlined where it is used, so index-only reads stay index-only.
CREATE OR REPLACE FUNCTION ledger_entry_notifies(phase text, amount bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT phase = 'single' OR (phase IN ('hold', 'void') AND amount < 0) OR (phase = 'post' AND amount > 0)
$$;

-- Tells the instances about a person: ':push' asks them to claim the person's due pushes (modules/push)
-- and feeds their streams; otherwise only the streams are fed. Sent at commit (NOTIFY), and only for
-- people someone listens to or a push is due for (wallet_events_tell_entries and wallet_event_tell
-- decide that).
DROP FUNCTION IF EXISTS wallet_event_notify(uuid, boolean);
CREATE OR REPLACE FUNCTION wallet_event_notify(p_user uuid, p_push boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('wallet_events', p_user::text || CASE WHEN p_push THEN ':push' ELSE '' END);
END
$$;

-- The live wallet's part of a movement, asked by ledger_move only for the entries of people someone
-- listens to or who have a push subscription: an entry that is a notification is a push due for a
-- person with a subscription, and each of those people is told once, at commit.
CREATE OR REPLACE FUNCTION wallet_events_tell_entries(entry_ids bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  pushed uuid[];
BEGIN
  WITH due AS (
    INSERT INTO push_due (user_id, kind, ref)
    SELECT e.user_id, 'entry', e.id::text FROM ledger_entries e
    -- A payout's fee is told by its payout's notice (docs/decisions/sbp.md#fees).
    WHERE e.id = ANY (entry_ids) AND ledger_entry_notifies(e.phase, e.amount) AND e.kind <> 'fee'
      AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = e.user_id)
    RETURNING user_id
  )
  SELECT array_agg(d.user_id) INTO pushed FROM due d;
  PERFORM wallet_event_notify(p.user_id, p.user_id = ANY (coalesce(pushed, '{}')))
  FROM (SELECT DISTINCT e.user_id FROM ledger_entries e WHERE e.id = ANY (entry_ids)) p
  WHERE p.user_id = ANY (coalesce(pushed, '{}'))
    OR EXISTS (SELECT 1 FROM wallet_event_listeners l WHERE l.user_id = p.user_id);
END
$$;

CREATE OR REPLACE FUNCTION wallet_events_notification() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  -- The head row's lock orders a person's notifications by commit: a reader never sees n+1 before n.
  INSERT INTO wallet_event_heads AS h (user_id, seq) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET seq = h.seq + 1
    RETURNING seq INTO v_seq;
  INSERT INTO wallet_events (user_id, seq, ref) VALUES (NEW.user_id, v_seq, NEW.id::text);
  PERFORM wallet_event_tell(NEW.user_id, 'notification', NEW.id::text, NEW.kind IN ('new_device', 'security', 'budget', 'support'));
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS wallet_events_entry ON ledger_entries;
DROP FUNCTION IF EXISTS wallet_events_entry();
-- A person's ledger entries are told by their one writer, ledger_move (ledger.sql).
DROP TRIGGER IF EXISTS wallet_events_entries ON ledger_entries;
DROP FUNCTION IF EXISTS wallet_events_entries();
CREATE OR REPLACE TRIGGER wallet_events_notification AFTER INSERT ON notifications FOR EACH ROW
  EXECUTE FUNCTION wallet_events_notification();
