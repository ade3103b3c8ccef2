-- The category of a person's outgoing operation
-- (docs/decisions/managing-money.md#managing-money-categories-budgets-goals), decided here and only here: the
-- person's choice for the operation; else the choice they remembered for its payee before the operation was
-- made; else the rule: a GOST payee's MCC or purpose, a withdrawal, a transfer to a person (an СБП one too), a payment (a QR
-- merchant) 'other'. An exchange and a savings move are one's own money: no category, not spending. Fixed
-- categories are codes (the app names them); a person's own is its id.

-- Who was paid, as a remembered choice names them: a wallet user, or a payout's account or card.
CREATE OR REPLACE FUNCTION category_payee(t ledger_transfers) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN t.reference_type = 'payout' THEN
      (SELECT 'payout:' || p.destination FROM payouts p WHERE p.id::text = t.reference_id)
    ELSE (SELECT 'person:' || a.user_id FROM ledger_accounts a WHERE a.id = t.credit_account_id AND a.user_id IS NOT NULL)
  END
$$;

-- A GOST code's MCC (ISO 18245) or purpose as a category; 'other' when neither says.
CREATE OR REPLACE FUNCTION category_of_payee_details(details jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN details ->> 'mcc' IN ('5411', '5422', '5441', '5451', '5462', '5499') THEN 'groceries'
    WHEN details ->> 'mcc' IN ('5811', '5812', '5813', '5814') THEN 'cafes'
    WHEN details ->> 'mcc' IN ('4111', '4112', '4121', '4131', '4784', '4789', '5541', '5542', '7523') THEN 'transport'
    WHEN details ->> 'mcc' IN ('4812', '4814', '4816', '4899') THEN 'telecom'
    WHEN details ->> 'mcc' IN ('4900') THEN 'utilities'
    WHEN details ->> 'mcc' IN ('5912', '8011', '8021', '8031', '8041', '8042', '8043', '8049', '8050', '8062', '8071', '8099')
      THEN 'health'
    WHEN lower(details ->> 'purpose') ~ '(жку|жкх|коммунал|квартплат|электроэнерг|электричеств|водоснабж|отоплен|газоснабж|капремонт|капитальн)'
      THEN 'utilities'
    WHEN lower(details ->> 'purpose') ~ '(интернет|связь|связи|мобильн|телефон|телевиден)' THEN 'telecom'
    WHEN lower(details ->> 'purpose') ~ '(лечен|медицин|клиник|аптек|стоматолог|анализ)' THEN 'health'
    WHEN lower(details ->> 'purpose') ~ '(проезд|транспорт|такси|парковк|штраф гибдд)' THEN 'transport'
    WHEN lower(details ->> 'purpose') ~ '(продукт|супермаркет)' THEN 'groceries'
    WHEN lower(details ->> 'purpose') ~ '(кафе|ресторан|столов)' THEN 'cafes'
    ELSE 'other'
  END
$$;

CREATE OR REPLACE FUNCTION category_by_rule(t ledger_transfers) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN t.kind IN ('exchange', 'savings') THEN NULL
    -- An СБП transfer is a withdrawal in the ledger but money sent to a person
    -- (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
    WHEN t.kind = 'withdrawal' AND t.reference_type = 'payout' AND EXISTS
      (SELECT 1 FROM payouts p WHERE p.id::text = t.reference_id AND p.destination_type = 'sbp') THEN 'people'
    WHEN t.kind = 'withdrawal' THEN 'cash'
    WHEN t.kind = 'transfer' THEN 'people'
    WHEN t.kind = 'payment' AND t.reference_type = 'payout' THEN
      coalesce((SELECT category_of_payee_details(p.payee_details) FROM payouts p WHERE p.id::text = t.reference_id), 'other')
    -- A merchant's payment: the merchant's MCC (docs/decisions/merchants.md#merchants).
    WHEN t.kind = 'payment' AND t.reference_type = 'merchant_payment' THEN
      coalesce((SELECT category_of_payee_details(jsonb_build_object('mcc', m.mcc)) FROM merchant_payments p
        JOIN merchants m ON m.id = p.merchant_id WHERE p.id::text = t.reference_id), 'other')
    ELSE 'other'
  END
$$;

-- The category of the operation `t` as `person` (its payer) reads it; null for money that is not spent.
CREATE OR REPLACE FUNCTION category_of(person uuid, t ledger_transfers) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN t.kind IN ('exchange', 'savings') THEN NULL ELSE coalesce(
    (SELECT c.category FROM operation_categories c WHERE c.user_id = person AND c.transfer_id = t.id),
    (SELECT p.category FROM payee_categories p
     WHERE p.user_id = person AND p.payee = category_payee(t) AND p.chosen_at <= t.created_at),
    category_by_rule(t)) END
$$;

-- Whether an entry of a person is spending a category counts: money out, neither an exchange nor a
-- savings move, not a hold given back. Statistics by category and budgets both read it.
CREATE OR REPLACE FUNCTION category_spending(e ledger_entries) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT e.amount < 0 AND e.kind NOT IN ('exchange', 'savings')
$$;
