-- Monthly budgets (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): what a budget's
-- category has spent in a Moscow month, and its notices at 80 % and 100 %, told once per budget, month and
-- threshold.

-- A category's name in a language: the fixed list's words, a person's own name, or all spending (null).
-- The one place the names live: the API answers them, the notices print them.
CREATE OR REPLACE FUNCTION category_name(category text, language text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN category IS NULL THEN CASE language WHEN 'en' THEN 'All spending' ELSE 'Все траты' END
    ELSE coalesce(
      (SELECT CASE language WHEN 'en' THEN n.en ELSE n.ru END FROM (VALUES
        ('groceries', 'Продукты', 'Groceries'),
        ('cafes', 'Кафе и рестораны', 'Cafes and restaurants'),
        ('transport', 'Транспорт', 'Transport'),
        ('telecom', 'Связь и интернет', 'Phone and internet'),
        ('utilities', 'Коммунальные услуги', 'Utilities'),
        ('health', 'Здоровье', 'Health'),
        ('people', 'Переводы людям', 'Transfers to people'),
        ('cash', 'Снятие на карту', 'Withdrawals to a card'),
        ('other', 'Другое', 'Other')) AS n (code, ru, en) WHERE n.code = category),
      (SELECT c.name FROM custom_categories c WHERE c.id::text = category),
      category)
  END
$$;

-- What a person spent in `currency` in the Moscow month of `at`, in one category or in all (null):
-- operations on their way count at once, a hold given back stops counting.
CREATE OR REPLACE FUNCTION budgets_spent(person uuid, category text, currency text, at timestamptz) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_variable
DECLARE
  month timestamptz := limits_month(at);
BEGIN
  RETURN (SELECT coalesce(-sum(e.amount), 0)::bigint
    FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
    WHERE e.user_id = person AND e.created_at >= month AND e.opened_at >= month
      AND limits_month(e.opened_at) = month
      AND e.phase IN ('single', 'hold') AND t.status <> 'voided' AND e.currency = currency
      AND category_spending(e) AND (category IS NULL OR category_of(person, t) = category));
END
$$;

-- After a person's spending is written (ledger_pay's epilogue, a category chosen): each budget that
-- now reaches 80 % or 100 % for the first time this month leaves its notification (the bell, the live
-- event and the push follow from the notifications' trigger). The notice's row is the once.
CREATE OR REPLACE FUNCTION budgets_after_spend(person uuid, at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  budget budgets;
  spent bigint;
  threshold smallint;
BEGIN
  FOR budget IN SELECT * FROM budgets b WHERE b.user_id = person LOOP
    spent := budgets_spent(person, budget.category, budget.currency, at);
    FOREACH threshold IN ARRAY ARRAY[80, 100]::smallint[] LOOP
      CONTINUE WHEN spent * 100 < budget.amount * threshold;
      INSERT INTO budget_notices (budget_id, month, threshold, created_at)
      VALUES (budget.id, limits_month(at), threshold, at) ON CONFLICT DO NOTHING;
      CONTINUE WHEN NOT FOUND;
      INSERT INTO notifications (user_id, kind, message_key, params, created_at)
      VALUES (person, 'budget', 'budget_' || threshold,
        jsonb_build_object('category', category_name(budget.category, 'ru'),
          'category_en', category_name(budget.category, 'en')), at);
    END LOOP;
  END LOOP;
END
$$;
