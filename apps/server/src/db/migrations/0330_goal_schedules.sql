-- A savings goal's regular deposit is a scheduled transfer whose target is the person's own goal
-- (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): a standing order names a payee
-- (and the phone it was made to) or a goal, never both.
ALTER TABLE scheduled_transfers ADD COLUMN goal_id uuid REFERENCES savings_goals (id);
ALTER TABLE scheduled_transfers ALTER COLUMN payee_id DROP NOT NULL;
ALTER TABLE scheduled_transfers ALTER COLUMN phone DROP NOT NULL;
ALTER TABLE scheduled_transfers ADD CONSTRAINT scheduled_transfers_target
  CHECK ((payee_id IS NULL) <> (goal_id IS NULL) AND (payee_id IS NULL) = (phone IS NULL));
