-- A code sent for a step beyond signing in (lifting a freeze, closing the wallet, a held operation)
-- confirms that step only: its binding's digest is kept in data_digest
-- (docs/decisions/security-rules.md#codes-bound-to-their-step).
ALTER TABLE auth_codes DROP CONSTRAINT auth_codes_purpose_check;
ALTER TABLE auth_codes ADD CONSTRAINT auth_codes_purpose_check CHECK (purpose IN ('register', 'login', 'step'));
