/**
 * The Savings section's frame: its title, its two pages, goals (/wallet/savings) and budgets
 * (/wallet/budgets), as a pair of links drawn as a toggle (the current one marked by NavLink's
 * aria-current), and the page's panel with the currencies the person has accounts in.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import './savings.css';
import '../../../shared/ui/toggle-group.css';
import type { AccountCurrency } from '@e-wallet/contract/money';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useAccountCurrencies } from '../../../shared/api/wallet.ts';
import { pathTo } from '../../../shared/routes.ts';

export function SavingsSection({ Panel }: { Panel: ComponentType<{ currencies: AccountCurrency[] }> }) {
  const { t } = useTranslation();
  const currencies = useAccountCurrencies();
  return (
    <div className="home-page money-page savings-page">
      <h1 className="home-page__title">{t('savings.title')}</h1>
      <nav className="toggle-group savings-tabs" aria-label={t('savings.sections')}>
        <NavLink className="toggle-group__option" to={pathTo('Savings')} end>
          {t('savings.goalsTab')}
        </NavLink>
        <NavLink className="toggle-group__option" to={pathTo('Budgets')} end>
          {t('savings.budgetsTab')}
        </NavLink>
      </nav>
      <Panel currencies={currencies} />
    </div>
  );
}
