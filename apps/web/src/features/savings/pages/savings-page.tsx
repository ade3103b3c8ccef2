/**
 * 'Копилка' (docs/decisions/managing-money.md, 'Managing money'): the savings goals at /wallet/savings
 * (components/goals-panel.tsx); the monthly budgets are the section's other page (budgets-page.tsx).
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import './savings.css';
import { useTranslation } from 'react-i18next';
import { useAccountCurrencies } from '../../../shared/api/wallet.ts';
import { GoalsPanel } from '../components/goals-panel.tsx';
import { SavingsTabs } from '../components/savings-tabs.tsx';

export function SavingsPage() {
  const { t } = useTranslation();
  const currencies = useAccountCurrencies();
  return (
    <div className="home-page money-page savings-page">
      <h1 className="home-page__title">{t('savings.title')}</h1>
      <SavingsTabs />
      <GoalsPanel currencies={currencies} />
    </div>
  );
}

export default SavingsPage;
