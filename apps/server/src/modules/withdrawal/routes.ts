/**
 * Withdrawal calls and the payouts provider's signed callback:
 *   POST /v2/wallet/withdrawal        withdraw to a card (PIN, Idempotency-Key)
 *   GET  /v2/wallet/withdrawal/:id    the receipt of one of the user's payouts
 *   POST /v2/wallet/webhooks/payouts  signed provider callback: settles the payout once
 * The sandbox provider's webhooks come back through this server's own route, in-process, so they pass
 * the same signature check as any callback.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { SandboxPayoutsProvider } from '../../providers/payouts/sandbox.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { registerSignedRoutes } from '../../providers/signature.ts';
import { handlePayoutWebhook, payoutReceipt } from './payouts.ts';
import { withdraw } from './service.ts';

export default async function withdrawalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (ctx.payouts instanceof SandboxPayoutsProvider) {
    ctx.payouts.setTransport(inProcessTransport(app, 'payout'));
  }

  route(app, ctx, 'withdrawal', ({ auth, body, idempotencyKey, language }) =>
    withdraw(ctx, auth.userId, body, { idempotencyKey, language }),
  );

  route(app, ctx, 'withdrawalReceipt', ({ auth, params, language }) =>
    payoutReceipt(ctx.db, auth.userId, params.id, language),
  );

  await registerSignedRoutes(app, ctx, (scope) => {
    route(scope, ctx, 'payoutsWebhook', async ({ body }) => {
      await handlePayoutWebhook(ctx, body);
      return { status: 'success' };
    });
  });
}
