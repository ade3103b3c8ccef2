-- A saved payee by СБП and 'repeat' of an СБП transfer (docs/decisions/sbp.md#saved-payees-and-repeat):
-- a template is a wallet user's phone or a phone at a participant bank; an СБП payout keeps its phone
-- sealed (with PAYOUTS_KEY), only for its own person's 'repeat', never in the clear.
ALTER TABLE payment_templates ADD COLUMN kind text NOT NULL DEFAULT 'wallet' CHECK (kind IN ('wallet', 'sbp'));
ALTER TABLE payment_templates ADD COLUMN bank_id text;
ALTER TABLE payment_templates ADD COLUMN bank_name text;
ALTER TABLE payment_templates ADD CONSTRAINT payment_templates_sbp_bank
  CHECK ((kind = 'sbp') = (bank_id IS NOT NULL AND bank_name IS NOT NULL));
ALTER TABLE payouts ADD COLUMN sealed_phone bytea;
