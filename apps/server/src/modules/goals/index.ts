/**
 * Savings goals, 'Копилка': their accounts, deposits, withdrawals and round-ups
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals). The public face of this module:
 * other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { goalMove, goalRow, goalsHoldingMoney, goalsOf } from './service.ts';

export const routes = modulePlugin('goals', register);
