-- Slimmer ledger rows (docs/performance-door.md): what each row carried twice goes.
-- A transfer's idempotency key was a second key store beside idempotency_keys, with a unique index of
-- its own (about 125 B a transfer): a person's call is keyed there already, and ledger_open's transfer
-- now takes its id from its key's digest (ledger_key_id, db/functions/ledger.sql), so the primary key
-- answers a repeat. A transfer opened before keeps its id; its old key is not asked again (a top-up's
-- credit, the only caller that repeats one, is kept once by its order's status).
ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_idempotency_key;
ALTER TABLE ledger_transfers DROP COLUMN idempotency_key;
DROP DOMAIN idempotency_key;
-- Written on every entry and read by nothing: what was held toward the account after it.
ALTER TABLE ledger_entries DROP COLUMN pending_credits_after;
