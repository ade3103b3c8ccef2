-- Sign-up and sign-in (decisions.md section 7). Secrets are kept only as keyed hashes.

-- A registration waiting for its SMS code: the person's data until the phone is confirmed.
CREATE TABLE pending_registrations (
  phone text PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The one live SMS code of a phone: to confirm a registration or to sign in.
-- code_hash is HMAC-SHA-256 of the code under a server key; the code itself is never stored.
CREATE TABLE auth_codes (
  phone text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  code_hash bytea NOT NULL,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  failed_tries integer NOT NULL DEFAULT 0 CHECK (failed_tries >= 0)
);

-- Online guard of the PIN: wrong PINs in a row (reset only by a correct PIN), and the end of the
-- current lock. Kept on the user's row so a row lock serialises every check across instances.
ALTER TABLE users
  ADD COLUMN pin_failures integer NOT NULL DEFAULT 0 CHECK (pin_failures >= 0),
  ADD COLUMN pin_locked_until timestamptz;
