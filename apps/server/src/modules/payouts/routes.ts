/**
 * The payouts provider's signed callback and the payouts' jobs:
 *   POST /v2/wallet/webhooks/payouts  the sandbox's signed callback: settles the payout once (only with
 *        PAYOUTS_PROVIDER=sandbox)
 *   POST /v2/wallet/webhooks/payouts/yookassa  YooKassa's notifications: the payout is asked from its API
 *        and only that answer settles it; a payout YooKassa does not have is refused (401)
 * Its jobs (jobs.ts) run in the job system (docs/decisions/jobs.md#one-job-system). The sandbox provider's
 * webhooks come back through this server's own route, in-process, so they pass the same signature check.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { registerUnsignedNotifications } from '../../providers/notifications.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { registerSignedRoutes } from '../../providers/signature.ts';
import { definePayoutJobs } from './jobs.ts';
import { applyPayoutNotification } from './notifications.ts';
import { handlePayoutWebhook } from './provider.ts';

export default async function payoutsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  ctx.payouts.setTransport?.(inProcessTransport(app, 'payout'));

  await registerSignedRoutes(app, ctx, 'PAYOUTS_PROVIDER', (scope) => {
    route(scope, ctx, 'payoutsWebhook', async ({ body }) => {
      await handlePayoutWebhook(ctx, body);
      return { status: 'success' };
    });
  });

  registerUnsignedNotifications(app, ctx.payouts.unsignedNotifications, (state) =>
    applyPayoutNotification(ctx, state),
  );

  definePayoutJobs(ctx);
}
