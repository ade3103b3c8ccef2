/**
 * The payouts provider's signed callback and this instance's payouts worker:
 *   POST /v2/wallet/webhooks/payouts  signed provider callback: settles the payout once
 * The worker starts when the server is ready and stops when it closes. The sandbox provider's webhooks
 * come back through this server's own route, in-process, so they pass the same signature check.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { registerSignedRoutes } from '../../providers/signature.ts';
import { handlePayoutWebhook } from './service.ts';
import { type PayoutWorker, startPayoutWorker } from './worker.ts';

export default async function payoutsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  ctx.payouts.setTransport?.(inProcessTransport(app, 'payout'));

  await registerSignedRoutes(app, ctx, (scope) => {
    route(scope, ctx, 'payoutsWebhook', async ({ body }) => {
      await handlePayoutWebhook(ctx, body);
      return { status: 'success' };
    });
  });

  let worker: PayoutWorker | null = null;
  app.addHook('onReady', async () => {
    worker = startPayoutWorker(ctx);
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });
}
