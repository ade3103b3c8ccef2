-- Recovery removes what a thief added (docs/decisions/recovery-and-four-eyes.md): a freeze suspends every
-- passkey and push subscription; a suspended passkey neither signs in nor confirms money, a suspended
-- subscription gets no push, until the owner keeps it (with the PIN or a code) or removes it. A passkey
-- remembers the device that added it, so the owner can tell theirs from a thief's.
ALTER TABLE passkeys ADD COLUMN suspended_at timestamptz;
ALTER TABLE passkeys ADD COLUMN user_agent text NOT NULL DEFAULT '';
ALTER TABLE push_subscriptions ADD COLUMN suspended_at timestamptz;

-- An operator's release of an antifraud hold from the amount floor up is proposed by one operator and
-- made by a second one with the compliance role (ops/antifraud.ts).
ALTER TABLE money_holds ADD COLUMN release_proposed_by uuid REFERENCES operators (id);
ALTER TABLE money_holds ADD COLUMN release_proposed_at timestamptz;
ALTER TABLE money_holds ADD COLUMN release_reason text;
