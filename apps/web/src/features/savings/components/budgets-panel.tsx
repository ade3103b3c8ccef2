/**
 * Monthly budgets (docs/decisions/managing-money.md, 'Managing money'): what this Moscow month has spent of each, and a
 * new one.
 */
import type { AccountCurrency } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CategorySelect } from '../../../shared/ui/category-select.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { FieldError } from '../../../shared/ui/text-field.tsx';
import { type Budget, budgetsQuery, deleteBudget, putBudget } from '../api/savings.ts';

import { Progress, problemOf } from './progress.tsx';

function BudgetRow({ budget }: { budget: Budget }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  return (
    <li className="savings-budget" data-testid="budget">
      <div className="savings-goal__head">
        <h3 className="savings-goal__name">{budget.name}</h3>
        <span className="savings-goal__percent">{budget.percent}%</span>
      </div>
      <Progress
        percent={budget.percent}
        over={budget.percent >= 100}
        label={t('savings.budgetProgress', { name: budget.name })}
      />
      <p className="savings-goal__figures" data-testid="budget-spent">
        {t('savings.spentOf', {
          spent: formatMoney(budget.spent, budget.currency_code, language),
          amount: formatMoney(budget.amount, budget.currency_code, language),
        })}
      </p>
      <Button
        type="button"
        variant="link"
        aria-label={t('savings.deleteBudget', { name: budget.name })}
        onClick={async () => {
          await deleteBudget(budget.category).catch(() => undefined);
          await queryClient.invalidateQueries({ queryKey: ['budgets'] });
        }}
      >
        {t('savings.delete')}
      </Button>
    </li>
  );
}

function NewBudget({ currencies }: { currencies: AccountCurrency[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [category, setCategory] = useState('');
  const [amount, setAmount] = useState('');
  const currency = currencies[0] ?? 'RUB';
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkAmount(amount, currency);
    if (!checked.ok) return setError(t(`moneyFlow.amountErrors.${checked.problem}`));
    setBusy(true);
    setError(null);
    try {
      await putBudget({ amount: checked.amount, currency_code: currency, ...(category ? { category } : {}) });
      setAmount('');
      await queryClient.invalidateQueries({ queryKey: ['budgets'] });
    } catch (failure) {
      setError(problemOf(failure, t('common.networkError')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="savings-form" onSubmit={submit} noValidate aria-label={t('savings.newBudget')}>
      <h3 className="savings-form__title">{t('savings.newBudget')}</h3>
      <div className="field">
        <CategorySelect
          label={t('savings.category')}
          anyLabel={t('savings.allSpending')}
          value={category}
          onChange={setCategory}
        />
      </div>
      <AmountField
        label={t('savings.budgetAmount')}
        value={amount}
        onChange={setAmount}
        currency={currency}
      />
      <FieldError message={error} />
      <Button type="submit" block busy={busy}>
        {t('savings.saveBudget')}
      </Button>
    </form>
  );
}

export function BudgetsPanel({ currencies }: { currencies: AccountCurrency[] }) {
  const { t } = useTranslation();
  const budgets = useQuery(budgetsQuery());
  return (
    <section className="panel" aria-labelledby="budgets-title">
      <h2 id="budgets-title" className="panel__title panel__title--spaced">
        {t('savings.budgets')}
      </h2>
      <p className="savings-page__text">{t('savings.budgetsText')}</p>
      {budgets.isPending ? (
        <AreaLoading rows={2} />
      ) : budgets.isError ? (
        <AreaError onRetry={() => budgets.refetch()} />
      ) : (
        budgets.data.results.length > 0 && (
          <ul className="savings-list">
            {budgets.data.results.map((budget) => (
              <BudgetRow key={budget.id} budget={budget} />
            ))}
          </ul>
        )
      )}
      {currencies.length > 0 && <NewBudget currencies={currencies} />}
    </section>
  );
}
