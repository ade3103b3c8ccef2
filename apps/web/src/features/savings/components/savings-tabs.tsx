/**
 * The Savings section's two pages, goals (/wallet/savings) and budgets (/wallet/budgets), as a pair of
 * links drawn as a toggle: the current one is marked by NavLink's aria-current.
 */
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { pathTo } from '../../../shared/routes.ts';
import '../../../shared/ui/toggle-group.css';

export function SavingsTabs() {
  const { t } = useTranslation();
  return (
    <nav className="toggle-group savings-tabs" aria-label={t('savings.sections')}>
      <NavLink className="toggle-group__option" to={pathTo('Savings')} end>
        {t('savings.goalsTab')}
      </NavLink>
      <NavLink className="toggle-group__option" to={pathTo('Budgets')} end>
        {t('savings.budgetsTab')}
      </NavLink>
    </nav>
  );
}
