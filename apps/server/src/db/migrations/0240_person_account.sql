-- A person's account (docs/decisions/account.md#a-persons-account): which version of the terms each person
-- accepted and when; the version a registration was started with, kept until the phone is
-- confirmed; and sign-in with a discoverable passkey, whose challenge belongs to nobody yet.
-- A closed wallet keeps its records (the law asks five years) but not its phone: the number moves
-- to closed_phone, so it can register a new wallet and nothing keyed by phone finds the old one.
ALTER TABLE users ADD COLUMN closed_at timestamptz;
ALTER TABLE users ADD COLUMN closed_phone text;

CREATE TABLE terms_acceptances (
  user_id uuid NOT NULL REFERENCES users (id),
  version text NOT NULL,
  accepted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, version)
);

ALTER TABLE pending_registrations ADD COLUMN terms_version text;
ALTER TABLE pending_registrations ADD COLUMN terms_accepted_at timestamptz;

ALTER TABLE webauthn_challenges ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE webauthn_challenges DROP CONSTRAINT IF EXISTS webauthn_challenges_purpose_check;
ALTER TABLE webauthn_challenges ADD CONSTRAINT webauthn_challenges_purpose_check
  CHECK (purpose IN ('register', 'confirm', 'login') AND (user_id IS NULL) = (purpose = 'login'));
