-- A payout's fee (docs/decisions/sbp.md#fees): held with the payout as its own transfer toward 'fees',
-- posted when the payout succeeds and voided with it when it fails. Zero and null without a fee.
ALTER TABLE payouts ADD COLUMN fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0);
ALTER TABLE payouts ADD COLUMN fee_transfer_id uuid;
