/**
 * The monthly budgets (docs/decisions/managing-money.md, 'Managing money') at /wallet/budgets, the
 * Savings section's second page (components/budgets-panel.tsx).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import './savings.css';
import { useTranslation } from 'react-i18next';
import { useAccountCurrencies } from '../../../shared/api/wallet.ts';
import { BudgetsPanel } from '../components/budgets-panel.tsx';
import { SavingsTabs } from '../components/savings-tabs.tsx';

export function BudgetsPage() {
  const { t } = useTranslation();
  const currencies = useAccountCurrencies();
  return (
    <div className="home-page money-page savings-page">
      <h1 className="home-page__title">{t('savings.title')}</h1>
      <SavingsTabs />
      <BudgetsPanel currencies={currencies} />
    </div>
  );
}

export default BudgetsPage;
