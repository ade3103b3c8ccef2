-- The transfers' two foreign keys to their accounts go the way of the entries' (0059) (issue 9).
-- Each movement checked them twice, after the statement that inserts the transfer: two queries of
-- the after-trigger queue, each an executor of its own, for rows the same statement had just locked,
-- read and updated. They cannot fail: the transfer is inserted only by `ledger_open` and
-- `user_transfer` (0060), from the accounts they locked by id with the transfer's currency, and
-- neither an account nor its currency ever goes away. Measured with the functions alone under
-- pgbench (10 clients, 30,000 calls a run, tables emptied and a CHECKPOINT before each run, three
-- alternating pairs): `ledger_open` 206-227 µs of PostgreSQL CPU per transfer with the keys, 194-201
-- µs without; `user_transfer` 252-272 against 247-255 µs per payment.
--
-- What the keys guarded is guarded here:
-- - an account is never deleted (0059's trigger), and its id, owner and currency never change (below;
--   a trigger on those columns only, so a balance's UPDATE does not fire it);
-- - every transfer's two accounts exist in its currency: `ledgerViolations`
--   (apps/server/test/fund.ts), after every money test, and the bench's invariants.
-- The unique (id, currency) pair existed only for the keys to point at.

ALTER TABLE ledger_transfers
  DROP CONSTRAINT ledger_transfers_debit_currency,
  DROP CONSTRAINT ledger_transfers_credit_currency;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_id_currency;

CREATE FUNCTION ledger_accounts_identity_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id <> OLD.id OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.currency <> OLD.currency THEN
    RAISE EXCEPTION 'a ledger account keeps its id, owner and currency' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER ledger_accounts_identity_guard BEFORE UPDATE OF id, user_id, currency ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_identity_guard();
