-- A merchant paid is a payee for the antifraud signs (docs/decisions/antifraud-paths.md, 'A merchant is a
-- payee'): 'paid before' reads a person's paid merchant payments, so they are found by their payer.
CREATE INDEX merchant_payments_payer ON merchant_payments (payer_id, paid_at) WHERE status = 'succeeded';
