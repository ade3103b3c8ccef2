-- Changes of how a person's money is confirmed or where their alerts go (a passkey added or removed,
-- the PIN changed, a push subscription added, security alerts switched off): each is told to the
-- person at once, and its time is kept where the antifraud checks can read it
-- (docs/decisions/security-rules.md#hardening-third-round). users.security_changed_at is the latest;
-- security_changes keeps each one.
ALTER TABLE users ADD COLUMN security_changed_at timestamptz;

CREATE TABLE security_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('passkey_added', 'passkey_removed', 'pin_changed', 'push_added', 'alerts_reduced')),
  -- How the person proved it was them: the PIN, a fresh SMS code, or nothing more than the session.
  proof text NOT NULL CHECK (proof IN ('pin', 'sms_code', 'session')),
  created_at timestamptz NOT NULL
);
CREATE INDEX security_changes_user_idx ON security_changes (user_id, created_at);

-- A passkey's registration challenge remembers how the person proved it was them (the PIN or an SMS
-- code); one without (issued before this rule) registers nothing.
ALTER TABLE webauthn_challenges ADD COLUMN proof text CHECK (proof IN ('pin', 'sms_code'));
