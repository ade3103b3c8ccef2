-- СБП payouts (docs/decisions/sbp.md): a payout may go by phone to a participant bank. Its destination is
-- the masked phone ('+7 912 ***-**-67'); the bank's id and name are in payee_details.
ALTER TABLE payouts DROP CONSTRAINT payouts_destination_type_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_destination_type_check
  CHECK (destination_type IN ('bank_card', 'bank_account', 'sbp'));
