-- A money call's Idempotency-Key, for every door that takes one (payments.sql; top-up through keyedCall): claimed
-- with the call's answer before the rules (payments succeed far more often than they are refused or
-- repeated), given back when a rule refuses, so a refused call stores nothing
-- (docs/decisions/api.md#the-api).
CREATE OR REPLACE FUNCTION idempotency_claim(
  person uuid, call_name text, call_key text, request_hash text, answer jsonb, at timestamptz,
  OUT claimed boolean, OUT first_request_hash text, OUT first_answer jsonb
) LANGUAGE plpgsql AS $$
#variable_conflict use_variable
BEGIN
  -- A call without a key has nothing to claim.
  claimed := call_key IS NULL;
  IF claimed THEN RETURN; END IF;
  INSERT INTO idempotency_keys (user_id, call, key, request_hash, answer, created_at)
  VALUES (person, call_name, call_key, request_hash, answer, at)
  ON CONFLICT (user_id, call, key) DO NOTHING;
  claimed := FOUND;
  IF NOT claimed THEN
    SELECT k.request_hash, k.answer INTO first_request_hash, first_answer FROM idempotency_keys k
    WHERE k.user_id = person AND k.call = call_name AND k.key = call_key;
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION idempotency_release(person uuid, call_name text, call_key text)
RETURNS void LANGUAGE sql AS $$
  DELETE FROM idempotency_keys k WHERE k.user_id = person AND k.call = call_name AND k.key = call_key;
$$;
