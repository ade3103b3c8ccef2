/**
 * Monthly budgets (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): GET/PUT/DELETE
 * /v2/wallet/budgets.
 */
import type { Language } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { budgetsOf, deleteBudget, putBudget } from './service.ts';

const DELETED: Record<Language, string> = { ru: 'Бюджет удалён', en: 'The budget is deleted' };

export default function budgetRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'budgets', ({ auth, language }) => budgetsOf(ctx, auth.userId, language));
  route(app, ctx, 'budgetPut', ({ auth, body, language }) => putBudget(ctx, auth.userId, body, language));
  route(app, ctx, 'budgetDelete', async ({ auth, query, language }) => {
    await deleteBudget(ctx, auth.userId, query.category);
    return { status: 'success', message: DELETED[language] };
  });
}
