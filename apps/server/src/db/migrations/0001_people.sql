-- People, their sign-in sessions and the guards around signing in. Secrets are kept only as keyed
-- hashes (docs/decisions/security-rules.md#security-baselines).

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text NOT NULL UNIQUE,
  email text NOT NULL,
  -- HMAC-SHA-256(PIN_KEY[version], salt || pin); null until the PIN is set.
  pin_hash bytea,
  pin_salt bytea,
  pin_key_version integer,
  -- Wrong PINs in a row (reset only by a right one) and the end of the current lock: on the user's
  -- row, so its lock serialises every check across instances.
  pin_failures integer NOT NULL DEFAULT 0 CHECK (pin_failures >= 0),
  pin_locked_until timestamptz,
  identification_level text NOT NULL DEFAULT 'anonymous'
    CHECK (identification_level IN ('anonymous', 'simplified', 'full')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id),
  -- SHA-256 of the 256-bit random token; the token itself is never stored.
  token_hash bytea NOT NULL UNIQUE,
  user_agent text NOT NULL DEFAULT '',
  ip text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;

-- A registration waiting for its SMS code: the person's data until the phone is confirmed.
CREATE TABLE pending_registrations (
  phone text PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The one live SMS code of a phone, to confirm a registration or to sign in, as an HMAC under a
-- server key; the code itself is never stored.
CREATE TABLE auth_codes (
  phone text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  code_hash bytea NOT NULL,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  failed_tries integer NOT NULL DEFAULT 0 CHECK (failed_tries >= 0)
);

-- Rate limits shared by every server instance: a sliding log per key of the hits inside its window.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits timestamptz[] NOT NULL,
  -- After this moment every hit has left the window and the row may be deleted.
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
