/**
 * Categories (docs/decisions/managing-money.md#managing-money-categories-budgets-goals):
 *   GET/POST /v2/wallet/categories, PATCH /v2/wallet/transaction/:id {category}
 * Statistics by category are the wallet's `GET /v2/wallet/stat?group_by=category`.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { categoriesOf, createCategory, setTransactionCategory } from './service.ts';

export default function categoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'categories', ({ auth, language }) => categoriesOf(ctx.db, auth.userId, language));
  route(app, ctx, 'categoryCreate', ({ auth, body }) => createCategory(ctx, auth.userId, body.name), {
    status: 201,
  });
  route(app, ctx, 'transactionCategory', ({ auth, params, body, language }) =>
    setTransactionCategory(ctx, auth.userId, params.id, body.category, language),
  );
}
