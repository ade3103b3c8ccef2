-- The rules of identification levels (docs/decisions/identification-and-limits.md#identification-levels),
-- decided here and only here: what a level may do, its balance cap and its monthly outgoing limit, and how
-- the figures behind them are counted. The server's configuration gives each level's figures
-- (policy/levels.ts) as one argument:
--   rules = {"anonymous": {"balance_max": "1500000", "monthly_outgoing_max": "4000000" or null,
--            "topup": true, "withdrawal": false, "transfer": false}, "simplified": {...}, "full": {...}}
-- Amounts are RUB minor units: money in other currencies counts at the current rate of the one table of
-- rates (exchange_rates, which the rates provider refreshes), rounded against the person: the balance
-- cap sums every account, the monthly limit what left every account. A refusal names its rule and the
-- figures its message needs, as text, e.g. {"rule": "limit_monthly", "limit": "4000000", "left": "120000"};
-- null means allowed.

-- The first instant of the calendar month of a time, Moscow time (UTC+3 all year): monthly limits
-- start again then.
CREATE OR REPLACE FUNCTION limits_month(at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (date_trunc('month', (at AT TIME ZONE 'UTC') + interval '3 hours') - interval '3 hours') AT TIME ZONE 'UTC'
$$;

-- Whether money leaving a person's account this way counts toward the monthly limit: withdrawals,
-- transfers and payments in any currency (an exchange between one's own accounts does not).
CREATE OR REPLACE FUNCTION limits_counts_outgoing(kind text, currency text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT kind IN ('withdrawal', 'transfer', 'payment')
$$;

-- Minor units of a currency as RUB minor units at the current rate, rounded up (what is counted
-- against a limit) or down (what is taken off it).
DROP FUNCTION IF EXISTS limits_foreign_in_roubles(bigint, text, boolean);
CREATE OR REPLACE FUNCTION limits_in_roubles(amount bigint, currency text, round_up boolean DEFAULT true)
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_variable
DECLARE
  rate exchange_rates;
  value numeric;
BEGIN
  IF currency = 'RUB' OR amount = 0 THEN RETURN amount; END IF;
  SELECT * INTO rate FROM exchange_rates r WHERE r.currency = currency;
  IF NOT FOUND THEN RAISE EXCEPTION 'limits: no rate for %', currency; END IF;
  -- Both exponents from the one table refreshRates writes from the contract's (exchange/service.ts).
  value := amount * rate.rub_per_unit
    * power(10::numeric, (SELECT r.exponent FROM exchange_rates r WHERE r.currency = 'RUB') - rate.exponent);
  RETURN CASE WHEN round_up THEN ceil(value) ELSE floor(value) END;
END
$$;

-- What counted left a person's account in the calendar month of `at`: the figure the account keeps
-- (ledger_move writes it with the balance), an expression the planner inlines where it is used (the
-- account is a plain column there). Only a clock set back before the kept month reads the entries.
CREATE OR REPLACE FUNCTION limits_sent_in_month_read(account ledger_accounts, at timestamptz) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  month timestamptz := limits_month(at);
BEGIN
  RETURN (SELECT coalesce(sum(CASE WHEN e.phase = 'void' THEN e.amount ELSE -e.amount END), 0)::bigint
    FROM ledger_entries e
    WHERE e.user_id = account.user_id AND e.account_id = account.id AND e.amount < 0
      AND e.phase IN ('single', 'hold', 'void') AND e.created_at >= month AND e.opened_at >= month
      AND limits_month(e.opened_at) = month
      AND limits_counts_outgoing(e.kind, e.currency));
END
$$;

DROP FUNCTION IF EXISTS limits_sent_in_month(ledger_accounts, timestamptz);
CREATE OR REPLACE FUNCTION limits_sent_in_month(account ledger_accounts, at timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN account.outgoing_month = limits_month(at) THEN account.outgoing_in_month
    WHEN account.outgoing_month IS NULL OR account.outgoing_month < limits_month(at) THEN 0
    ELSE limits_sent_in_month_read(account, at) END
$$;

-- What counted left all of a person's accounts in the calendar month of `at`, in roubles. A figure
-- is a one-row SQL function the planner inlines into the statement that reads it, so a payment reads
-- both its people's figures in one statement.
DROP FUNCTION IF EXISTS limits_sent_in_month_total(uuid, timestamptz);
CREATE OR REPLACE FUNCTION limits_sent_in_month_total(person uuid, at timestamptz) RETURNS TABLE (sent bigint)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(limits_in_roubles(limits_sent_in_month(a, at), a.currency)), 0)::bigint
  FROM ledger_accounts a WHERE a.user_id = person
$$;

-- How long a pending top-up order reserves room under the balance cap (limits_order_reserves): while
-- the provider may still report it paid. modules/topup fails an unpaid order after it, asking this.
CREATE OR REPLACE FUNCTION limits_reservation() RETURNS interval
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT interval '1 hour'
$$;

-- Whether a top-up order reserves room under the balance cap at `at`: pending, and younger than
-- limits_reservation(). Inlined where it is used, so the pending orders' index serves it.
CREATE OR REPLACE FUNCTION limits_order_reserves(o topup_orders, at timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT o.status = 'pending' AND o.created_at > at - limits_reservation()
$$;

-- What a person holds toward the balance cap, in roubles: every account's balance, what is on its way
-- in, what reserving top-up orders keep and what the person's savings goals hold (accounts of their
-- own, goals.sql: the person's money all the same), each part at the current rate. A figure, inlined
-- where it is read; one sum over the parts, since each sum costs the statement an aggregate to start.
DROP FUNCTION IF EXISTS limits_holdings(uuid, timestamptz);
CREATE OR REPLACE FUNCTION limits_holdings(person uuid, at timestamptz) RETURNS TABLE (held bigint)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(limits_in_roubles(part.amount, part.currency)), 0)::bigint FROM (
    SELECT a.balance + a.pending_credits AS amount, a.currency FROM ledger_accounts a WHERE a.user_id = person
    UNION ALL
    SELECT o.amount, o.currency FROM topup_orders o WHERE o.user_id = person AND limits_order_reserves(o, at)
    UNION ALL
    SELECT a.balance, a.currency FROM savings_goals g JOIN ledger_accounts a ON a.id = g.account_id
    WHERE g.user_id = person AND g.closed_at IS NULL
  ) part
$$;

-- The decisions: whether a figure and an amount pass a level's rule. Each is one expression the
-- planner inlines into the statement that asks it; null means allowed, a refusal names its rule and
-- the figures its message needs.

-- Why a person at `level` may not send `amount` of `currency` as `kind` (to another person when
-- `to_person`), having sent `sent` this month: the level's permission, then the monthly limit.
DROP FUNCTION IF EXISTS limits_spend_refusal(jsonb, text, ledger_accounts, text, boolean, bigint, timestamptz);
CREATE OR REPLACE FUNCTION limits_spend_refusal(
  rules jsonb, level text, currency text, kind text, to_person boolean, amount bigint, sent bigint
) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN to_person AND NOT (rules -> level ->> 'transfer')::boolean
      THEN jsonb_build_object('rule', 'transfer_not_allowed')
    WHEN kind = 'withdrawal' AND NOT (rules -> level ->> 'withdrawal')::boolean
      THEN jsonb_build_object('rule', 'withdrawal_not_allowed')
    WHEN limits_counts_outgoing(kind, currency)
      AND sent + limits_in_roubles(amount, currency) > (rules -> level ->> 'monthly_outgoing_max')::bigint
      THEN jsonb_build_object('rule', 'limit_monthly', 'limit', rules -> level ->> 'monthly_outgoing_max',
        'left', greatest((rules -> level ->> 'monthly_outgoing_max')::bigint - sent, 0)::text)
  END
$$;

-- Why a person at `level` holding `held` may not receive `amount` of `currency`: the balance cap.
DROP FUNCTION IF EXISTS limits_receive_refusal(jsonb, text, ledger_accounts, bigint, timestamptz);
CREATE OR REPLACE FUNCTION limits_receive_refusal(
  rules jsonb, level text, currency text, amount bigint, held bigint
) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN held + limits_in_roubles(amount, currency) > (rules -> level ->> 'balance_max')::bigint
    THEN jsonb_build_object('rule', 'limit_balance', 'limit', rules -> level ->> 'balance_max') END
$$;

-- Why a person may not start a top-up of `amount`, or null: the level's permission, then the cap.
-- Locks the person's row, so two orders of one person are decided one after the other.
CREATE OR REPLACE FUNCTION limits_topup_refusal(
  rules jsonb, person uuid, currency text, amount bigint, at timestamptz
) RETURNS jsonb LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  level text;
  held bigint;
BEGIN
  SELECT u.identification_level INTO level FROM users u WHERE u.id = person FOR NO KEY UPDATE;
  IF NOT (rules -> level ->> 'topup')::boolean THEN
    RETURN jsonb_build_object('rule', 'topup_not_allowed');
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.user_id = person AND a.currency = currency) THEN
    RETURN jsonb_build_object('rule', 'account_missing');
  END IF;
  SELECT h.held INTO held FROM limits_holdings(person, at) h;
  RETURN limits_receive_refusal(rules, level, currency, amount, held);
END
$$;

-- Why a person at `level` holding `held` may not exchange `amount` of one currency for `receive` of
-- another, or null: the level's permission (anonymous wallets may not), then the balance cap, when the
-- exchange makes the holdings worth more in roubles.
DROP FUNCTION IF EXISTS limits_exchange_refusal(jsonb, text, uuid, text, bigint, text, bigint, timestamptz);
CREATE OR REPLACE FUNCTION limits_exchange_refusal(
  rules jsonb, level text, from_currency text, amount bigint, to_currency text, receive bigint, held bigint
) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN NOT coalesce((rules -> level ->> 'exchange')::boolean, (rules -> level ->> 'transfer')::boolean)
      THEN jsonb_build_object('rule', 'exchange_not_allowed')
    WHEN limits_in_roubles(receive, to_currency, true) - limits_in_roubles(amount, from_currency, false) > 0
      AND held + limits_in_roubles(receive, to_currency, true) - limits_in_roubles(amount, from_currency, false)
        > (rules -> level ->> 'balance_max')::bigint
      THEN jsonb_build_object('rule', 'limit_balance', 'limit', rules -> level ->> 'balance_max')
  END
$$;
