/**
 * Categories of operations: the fixed list, a person's own names, their choices
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals). The public face of this module:
 * other modules and the app import only this file.
 */
import { modulePlugin } from '../../http/module.ts';
import register from './routes.ts';

export { isCategoryOf } from './service.ts';

export const routes = modulePlugin('categories', register);
