-- An operator's account is never locked by failures: the sign-in is throttled by the client's address
-- instead (ops/sign-in-throttle.ts), so a stranger cannot lock an operator out. The column of the former
-- lock was never set; `failures` stays, a count the operators' page shows.
ALTER TABLE operators DROP COLUMN IF EXISTS locked_until;
