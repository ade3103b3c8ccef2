/**
 * Savings goals (docs/decisions/managing-money.md#managing-money-categories-budgets-goals):
 *   GET/POST /v2/wallet/goals, GET/PATCH/DELETE /v2/wallet/goals/:id,
 *   POST /v2/wallet/goals/:id/deposit and /withdraw (money calls: PIN or passkey, Idempotency-Key)
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { createGoal, goalOf, goalsOf, moveGoalMoney, updateGoal } from './service.ts';

export default function goalRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'goals', ({ auth }) => goalsOf(ctx, auth.userId));
  route(app, ctx, 'goalCreate', ({ auth, body }) => createGoal(ctx, auth.userId, body), { status: 201 });
  route(app, ctx, 'goal', ({ auth, params }) => goalOf(ctx, auth.userId, params.id));
  route(app, ctx, 'goalUpdate', ({ auth, params, body }) => updateGoal(ctx, auth.userId, params.id, body));
  route(app, ctx, 'goalDeposit', ({ auth, params, body, idempotencyKey, language }) =>
    moveGoalMoney(ctx, auth.userId, params.id, 'deposit', body, { idempotencyKey, language }),
  );
  route(app, ctx, 'goalWithdraw', ({ auth, params, body, idempotencyKey, language }) =>
    moveGoalMoney(ctx, auth.userId, params.id, 'withdraw', body, { idempotencyKey, language }),
  );
  route(app, ctx, 'goalDelete', ({ auth, params, idempotencyKey, language }) =>
    moveGoalMoney(ctx, auth.userId, params.id, 'close', null, { idempotencyKey, language }),
  );
}
