-- People and their sign-in sessions. Secrets are kept only as hashes (decisions.md section 7).
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
