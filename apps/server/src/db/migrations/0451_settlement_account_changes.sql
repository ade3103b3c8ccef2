-- A merchant's new settlement account is a security change (docs/decisions/merchants.md#settlement): the
-- owner is told, and nothing is paid to it for a day.
ALTER TABLE security_changes DROP CONSTRAINT security_changes_kind_check;
ALTER TABLE security_changes ADD CONSTRAINT security_changes_kind_check CHECK (kind IN ('passkey_added',
  'passkey_removed', 'pin_changed', 'push_added', 'alerts_reduced', 'settlement_account_changed'));
