-- Server instances keep recently read sessions in memory (sessions/cache.ts); a change that can end a
-- session tells every instance at once: revoked, its expiry moved, its last use moved back (an idle
-- session), or removed. The payload is the user: all of that user's cached sessions are dropped.
-- Touches of last_used_at (forward, at most once a minute) stay silent. NOTIFY is delivered at commit.
CREATE OR REPLACE FUNCTION sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sessions_changed', OLD.user_id::text);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER sessions_changed AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR NEW.last_used_at < OLD.last_used_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION sessions_notify();
CREATE OR REPLACE TRIGGER sessions_removed AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION sessions_notify();
