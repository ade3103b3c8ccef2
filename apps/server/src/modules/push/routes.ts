/**
 * Web Push and the person's choice of alerts (docs/decisions/live-wallet.md#the-live-wallet):
 *   GET    /v2/wallet/push/key               the VAPID public key
 *   POST   /v2/wallet/push/subscription      keep this browser's subscription (400 when it cannot be one)
 *   DELETE /v2/wallet/push/subscription      forget it
 *   GET    /v2/wallet/notification/settings  which pushes the person gets
 *   POST   /v2/wallet/notification/settings  change them (money out cannot be switched off)
 * The sender starts with the server and stops with it.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { definePushJobs, PushSender, settingsOf, subscribe, unsubscribe, updateSettings } from './service.ts';

export default function pushRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'pushKey', async () => ({ public_key: ctx.config.VAPID_PUBLIC_KEY }));
  route(app, ctx, 'pushSubscribe', async ({ auth, body, language }) => {
    await subscribe(ctx, auth.userId, body, language);
    return { status: 'success' as const };
  });
  route(app, ctx, 'pushUnsubscribe', async ({ auth, body }) => {
    await unsubscribe(ctx, auth.userId, body.endpoint);
    return { status: 'success' as const };
  });
  route(app, ctx, 'notificationSettings', ({ auth }) => settingsOf(ctx, auth.userId));
  route(app, ctx, 'updateNotificationSettings', ({ auth, body, language }) =>
    updateSettings(ctx, auth.userId, body, language),
  );

  definePushJobs(ctx);
  let sender: PushSender | null = null;
  app.addHook('onReady', async () => {
    sender = new PushSender(ctx);
  });
  app.addHook('onClose', async () => {
    await sender?.close();
  });
}
