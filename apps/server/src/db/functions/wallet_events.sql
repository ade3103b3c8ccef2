-- The live wallet's outbox (migration 0200, docs/decisions.md section 11). A person's ledger entries
-- and stored notifications become numbered events in the transaction that writes them; NOTIFY (sent
-- at commit, only for people someone listens to) tells every instance whose streams to feed. Written by triggers, so every door to money
-- and every notification is covered without a second writer.
CREATE OR REPLACE FUNCTION wallet_event_add(p_user uuid, p_kind text, p_ref text, p_push boolean)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_push boolean := p_push AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = p_user);
BEGIN
  -- The head row's lock orders a person's events by commit: a reader never sees n+1 before n.
  INSERT INTO wallet_event_heads AS h (user_id, seq) VALUES (p_user, 1)
    ON CONFLICT (user_id) DO UPDATE SET seq = h.seq + 1
    RETURNING seq INTO v_seq;
  INSERT INTO wallet_events (user_id, seq, kind, ref, push_due)
    VALUES (p_user, v_seq, p_kind, p_ref, v_push);
  -- Only when an instance holds the person's streams or a push is due (migration 0200 says why).
  -- ':push' asks the instances to claim the person's due pushes (modules/push); one of them wins each.
  IF v_push OR EXISTS (SELECT 1 FROM wallet_event_listeners l WHERE l.user_id = p_user) THEN
    PERFORM pg_notify('wallet_events', p_user::text || CASE WHEN v_push THEN ':push' ELSE '' END);
  END IF;
END
$$;

-- Entries the notifications list as money in or out may be pushed (modules/notifications noticeEntrySql).
CREATE OR REPLACE FUNCTION wallet_events_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM wallet_event_add(NEW.user_id, 'entry', NEW.id::text,
    NEW.phase = 'single' OR (NEW.phase IN ('hold', 'void') AND NEW.amount < 0) OR (NEW.phase = 'post' AND NEW.amount > 0));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION wallet_events_notification() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM wallet_event_add(NEW.user_id, 'notification', NEW.id::text, NEW.kind IN ('new_device', 'security'));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER wallet_events_entry AFTER INSERT ON ledger_entries FOR EACH ROW
  WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION wallet_events_entry();
CREATE OR REPLACE TRIGGER wallet_events_notification AFTER INSERT ON notifications FOR EACH ROW
  EXECUTE FUNCTION wallet_events_notification();
