/**
 * Managing money: categories, budgets and savings goals: their calls, as calls.ts assembles them into
 * the one table. Their shapes are in money-management.ts.
 */
import type { CallDef } from './calls.ts';
import * as mm from './money-management.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const moneyManagementCalls = {
  categories: def({
    method: 'GET',
    path: '/v2/wallet/categories',
    access: 'token',
    tag: 'money',
    summary: 'The categories an operation may have: the fixed list, then the person’s own names',
    answer: mm.CategoryList,
  }),
  categoryCreate: def({
    method: 'POST',
    path: '/v2/wallet/categories',
    access: 'token',
    tag: 'money',
    summary: 'A category of one’s own; the same name again answers the one there is',
    body: mm.CategoryCreate,
    answer: mm.Category,
  }),
  transactionCategory: def({
    method: 'PATCH',
    path: '/v2/wallet/transaction/:id',
    access: 'token',
    tag: 'money',
    summary: 'Sets the category of one’s own outgoing operation; remembered for its payee’s next ones',
    params: s.IdParams,
    body: mm.TransactionCategoryUpdate,
    answer: mm.TransactionCategoryAnswer,
  }),
  budgets: def({
    method: 'GET',
    path: '/v2/wallet/budgets',
    access: 'token',
    tag: 'money',
    summary: 'Monthly budgets with what this Moscow month has spent of each',
    answer: mm.BudgetList,
  }),
  budgetPut: def({
    method: 'PUT',
    path: '/v2/wallet/budgets',
    access: 'token',
    tag: 'money',
    summary: 'Sets the monthly budget of a category, or of all spending without one',
    body: mm.BudgetPut,
    answer: mm.Budget,
  }),
  budgetDelete: def({
    method: 'DELETE',
    path: '/v2/wallet/budgets',
    access: 'token',
    tag: 'money',
    summary: 'Removes the budget of a category, or of all spending without one',
    query: mm.BudgetDeleteQuery,
    answer: s.StatusMessage,
  }),
  goals: def({
    method: 'GET',
    path: '/v2/wallet/goals',
    access: 'token',
    tag: 'money',
    summary: 'Savings goals (‘Копилка’) with what each holds and when it is reached at the current pace',
    answer: mm.GoalList,
  }),
  goalCreate: def({
    method: 'POST',
    path: '/v2/wallet/goals',
    access: 'token',
    tag: 'money',
    summary: 'A new savings goal in one of one’s account currencies',
    body: mm.GoalCreate,
    answer: mm.Goal,
  }),
  goal: def({
    method: 'GET',
    path: '/v2/wallet/goals/:id',
    access: 'token',
    tag: 'money',
    summary: 'One savings goal with its latest movements',
    params: s.IdParams,
    answer: mm.GoalDetail,
  }),
  goalUpdate: def({
    method: 'PATCH',
    path: '/v2/wallet/goals/:id',
    access: 'token',
    tag: 'money',
    summary: 'Renames a goal or sets its round-up (0, 10, 50 or 100); one goal rounds up at a time',
    params: s.IdParams,
    body: mm.GoalUpdate,
    answer: mm.Goal,
  }),
  goalDeposit: def({
    method: 'POST',
    path: '/v2/wallet/goals/:id/deposit',
    access: 'token',
    tag: 'money',
    summary: 'Moves money from the account into the goal, confirmed with the PIN or a passkey',
    params: s.IdParams,
    body: mm.GoalMoveRequest,
    answer: mm.GoalMoveAnswer,
    idempotent: true,
  }),
  goalWithdraw: def({
    method: 'POST',
    path: '/v2/wallet/goals/:id/withdraw',
    access: 'token',
    tag: 'money',
    summary: 'Moves money from the goal back to the account, confirmed with the PIN or a passkey',
    params: s.IdParams,
    body: mm.GoalMoveRequest,
    answer: mm.GoalMoveAnswer,
    idempotent: true,
  }),
  goalDelete: def({
    method: 'DELETE',
    path: '/v2/wallet/goals/:id',
    access: 'token',
    tag: 'money',
    summary: 'Deletes a goal: all its money returns to the account first',
    params: s.IdParams,
    answer: mm.GoalMoveAnswer,
    idempotent: true,
  }),
} as const satisfies Record<string, CallDef>;
