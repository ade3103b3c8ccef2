-- Who each payout paid, for the antifraud check's 'paid before' (modules/antifraud/assess.ts): a card's
-- keyed hash or a bank account, so a card or an account never paid before is a new payee as a person
-- is. Older payouts have none: their payees count as new once more.
ALTER TABLE payouts ADD COLUMN payee_key text;
CREATE INDEX payouts_user_payee_idx ON payouts (user_id, payee_key) WHERE payee_key IS NOT NULL;
