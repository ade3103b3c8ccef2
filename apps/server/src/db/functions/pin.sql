-- Whether a person's PIN guard is clean: no wrong PIN counted and no lock remembered (a right PIN or a
-- passkey, checked by modules/auth/pin.ts, makes it clean again). Its one definition: pin_proven reads
-- it here, and pin.ts reads it as a column of the person's row.
CREATE OR REPLACE FUNCTION pin_clean(person users) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT person.pin_failures = 0 AND person.pin_locked_until IS NULL
$$;

-- Whether the PIN proof a server made proves the person's PIN inside a money statement: it matches
-- the stored hash and the guard is clean (modules/auth/pin.ts decides anything else, and counts it).
-- Asked by every door that takes a PIN (payments.sql); a plain SQL expression, inlined where it is used.
CREATE OR REPLACE FUNCTION pin_proven(person users, proof bytea) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT person.pin_hash = proof AND pin_clean(person)
$$;
