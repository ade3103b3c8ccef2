/** The notification calls: the signed-in user's notifications, newest first, and marking them read. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { route } from '../../http/route.ts';
import { listNotifications, markRead } from './service.ts';

export default function notificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const ids = opaqueIds(ctx.config);
  route(app, ctx, 'notifications', (call) =>
    listNotifications(ctx.db, call.auth.userId, {
      cursor: call.query.cursor,
      limit: call.query.limit ? Number(call.query.limit) : 20,
      language: call.language,
      ids,
    }),
  );
  route(app, ctx, 'readNotifications', async (call) => {
    await markRead(ctx.db, call.auth.userId, call.body.ids, ctx.clock.now(), ids);
    return { status: 'success' as const };
  });
}
