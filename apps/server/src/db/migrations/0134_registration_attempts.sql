-- The data digest of the latest registration started for a phone, kept for every phone, with a
-- wallet or without (modules/auth/service.ts): the codes a phone gets afterwards carry it, so the
-- answers about a number never depend on whether it has a wallet. The data itself is kept only for
-- numbers without one (pending_registrations); both are swept together.
CREATE TABLE registration_attempts (
  phone text PRIMARY KEY,
  data_digest bytea NOT NULL,
  updated_at timestamptz NOT NULL
);
