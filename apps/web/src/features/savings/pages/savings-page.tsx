/**
 * 'Копилка' (docs/decisions/managing-money.md, 'Managing money'): the savings goals at /wallet/savings
 * (components/goals-panel.tsx); the monthly budgets are the section's other page (budgets-page.tsx).
 */
import { GoalsPanel } from '../components/goals-panel.tsx';
import { SavingsSection } from '../components/savings-section.tsx';

export function SavingsPage() {
  return <SavingsSection Panel={GoalsPanel} />;
}

export default SavingsPage;
