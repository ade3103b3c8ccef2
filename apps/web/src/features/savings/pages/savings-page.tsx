/**
 * 'Копилка и бюджеты' (docs/decisions/managing-money.md, 'Managing money'): the savings goals (components/goals-panel.tsx),
 * then the monthly budgets (components/budgets-panel.tsx), one page at /wallet/savings.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import './savings.css';
import '../../../shared/ui/pay-modal/money-flow.css';
import './savings.css';
import type { AccountCurrency } from '@e-wallet/contract/money';
import { useTranslation } from 'react-i18next';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { BudgetsPanel } from '../components/budgets-panel.tsx';
import { GoalsPanel } from '../components/goals-panel.tsx';

export function SavingsPage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const currencies = (accounts.data ?? []).map((account) => account.currency_code as AccountCurrency);
  return (
    <div className="home-page money-page savings-page">
      <h1 className="home-page__title">{t('savings.title')}</h1>
      <GoalsPanel currencies={currencies} />
      <BudgetsPanel currencies={currencies} />
    </div>
  );
}

export default SavingsPage;
