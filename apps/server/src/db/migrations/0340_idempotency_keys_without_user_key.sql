-- An Idempotency-Key's row names its person without a foreign key: the key is claimed by the door that
-- holds the person's row locked (idempotency.sql, payments.sql) or for the signed-in person (top-up),
-- and people are never deleted. The key's check was a query per money call: 2.5% of a P2P payment's
-- instructions in the database (docs/performance.md, 'Counting instructions').
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_user_id_fkey;
