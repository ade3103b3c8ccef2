-- A merchant's settlement (docs/decisions/merchants.md#settlement): its balance paid out to its bank account
-- by the payouts provider, as a payout of purpose 'settlement' whose hold leaves the merchant's ledger
-- account (not the person's wallet); `merchant_id` names it, `user_id` the person who owns the merchant.
ALTER TABLE payouts DROP CONSTRAINT payouts_purpose_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_purpose_check
  CHECK (purpose IN ('withdrawal', 'payment', 'settlement'));
ALTER TABLE payouts ADD COLUMN merchant_id uuid REFERENCES merchants (id);
ALTER TABLE payouts ADD CONSTRAINT payouts_settlement_merchant
  CHECK ((purpose = 'settlement') = (merchant_id IS NOT NULL));
CREATE INDEX payouts_merchant_idx ON payouts (merchant_id, created_at DESC) WHERE merchant_id IS NOT NULL;
