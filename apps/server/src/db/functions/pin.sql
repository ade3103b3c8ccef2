-- Whether the PIN proof a server made proves the person's PIN inside a money statement: it matches
-- the stored hash, no wrong PIN is counted and no lock stands (modules/auth/pin.ts decides anything
-- else, and counts it). Asked by every door that takes a PIN (payments.sql); a plain
-- SQL expression, inlined where it is used.
CREATE OR REPLACE FUNCTION pin_proven(person users, proof bytea) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT person.pin_hash = proof AND person.pin_failures = 0 AND person.pin_locked_until IS NULL
$$;
