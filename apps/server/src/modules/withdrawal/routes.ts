/**
 * Withdrawal calls:
 *   POST /v2/wallet/withdrawal        withdraw to a card (PIN, Idempotency-Key)
 *   POST /v2/wallet/withdrawal/check  whether it can go through, before the PIN
 *   GET  /v2/wallet/withdrawal/:id    the receipt of one of the user's payouts
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { payoutReceipt } from '../payouts/index.ts';
import { checkWithdrawal, withdraw } from './service.ts';

export default function withdrawalRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'withdrawal', ({ auth, body, idempotencyKey, language }) =>
    withdraw(ctx, auth.userId, body, { idempotencyKey, language, sessionId: auth.sessionId }),
  );

  route(app, ctx, 'withdrawalCheck', ({ auth, body, language }) =>
    checkWithdrawal(ctx, auth.userId, body, language),
  );

  route(app, ctx, 'withdrawalReceipt', ({ auth, params, language }) =>
    payoutReceipt(ctx.db, auth.userId, params.id, language),
  );
}
