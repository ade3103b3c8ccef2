-- The live wallet (migration 0200, docs/decisions.md section 14), by triggers, so every door to money
-- and every notification is covered without a second writer:
-- - a person's ledger entry is an event as it is: it only sends NOTIFY (at commit) when an instance
--   holds the person's streams (wallet_event_listeners), and marks a push due when the person has a
--   push subscription and the entry is one the notifications list;
-- - a stored notification gets the person's next event number (wallet_events), then the same.
-- NOTIFY serialises the commits of the transactions that send it, so money nobody watches sends none.
CREATE OR REPLACE FUNCTION wallet_event_tell(p_user uuid, p_kind text, p_ref text, p_push boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_push AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = p_user) THEN
    INSERT INTO push_due (user_id, kind, ref) VALUES (p_user, p_kind, p_ref);
    -- ':push' asks the instances to claim the person's due pushes (modules/push); one of them wins each.
    PERFORM pg_notify('wallet_events', p_user::text || ':push');
  ELSIF EXISTS (SELECT 1 FROM wallet_event_listeners l WHERE l.user_id = p_user) THEN
    PERFORM pg_notify('wallet_events', p_user::text);
  END IF;
END
$$;

-- Entries the notifications list as money in or out may be pushed (modules/notifications noticeEntrySql).
CREATE OR REPLACE FUNCTION wallet_events_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM wallet_event_tell(NEW.user_id, 'entry', NEW.id::text,
    NEW.phase = 'single' OR (NEW.phase IN ('hold', 'void') AND NEW.amount < 0) OR (NEW.phase = 'post' AND NEW.amount > 0));
  RETURN NULL;
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
  PERFORM wallet_event_tell(NEW.user_id, 'notification', NEW.id::text, NEW.kind IN ('new_device', 'security'));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER wallet_events_entry AFTER INSERT ON ledger_entries FOR EACH ROW
  WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION wallet_events_entry();
CREATE OR REPLACE TRIGGER wallet_events_notification AFTER INSERT ON notifications FOR EACH ROW
  EXECUTE FUNCTION wallet_events_notification();
