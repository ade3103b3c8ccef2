/**
 * The monthly budgets (docs/decisions/managing-money.md, 'Managing money') at /wallet/budgets, the
 * Savings section's second page (components/budgets-panel.tsx).
 */
import { BudgetsPanel } from '../components/budgets-panel.tsx';
import { SavingsSection } from '../components/savings-section.tsx';

export function BudgetsPage() {
  return <SavingsSection Panel={BudgetsPanel} />;
}

export default BudgetsPage;
