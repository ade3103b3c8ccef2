-- A registration code is bound to the data it was sent for: the keyed digest of the names and
-- e-mail it confirms (modules/auth/codes.ts registrationDigest). NULL for sign-in codes.
ALTER TABLE auth_codes ADD COLUMN data_digest bytea;
