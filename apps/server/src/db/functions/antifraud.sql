-- The antifraud check's two tables (docs/decisions/antifraud.md#antifraud-and-the-trusted-person) tell every
-- server instance of each change, at commit, so what an instance keeps of them (modules/antifraud/watch.ts)
-- is dropped: the local fraud list as 'list', a person's trusted person's row as the person's id.
CREATE OR REPLACE FUNCTION antifraud_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (Each branch names only its own table's columns: PL/pgSQL resolves a field when it runs it.)
  IF TG_TABLE_NAME = 'fraud_list' THEN
    PERFORM pg_notify('antifraud_changed', 'list');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('antifraud_changed', OLD.user_id::text);
  ELSE
    PERFORM pg_notify('antifraud_changed', NEW.user_id::text);
    IF TG_OP = 'UPDATE' AND OLD.user_id <> NEW.user_id THEN
      PERFORM pg_notify('antifraud_changed', OLD.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER fraud_list_changed AFTER INSERT OR UPDATE OR DELETE ON fraud_list
  FOR EACH ROW EXECUTE FUNCTION antifraud_changed();
CREATE OR REPLACE TRIGGER trusted_people_changed AFTER INSERT OR UPDATE OR DELETE ON trusted_people
  FOR EACH ROW EXECUTE FUNCTION antifraud_changed();
