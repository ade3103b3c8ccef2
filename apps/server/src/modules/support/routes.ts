/**
 * The support chat in the app (docs/decisions/support.md#support-chat):
 *   GET  /v2/wallet/support/messages   the conversation, newest first (cursor pages), with the unread count
 *   POST /v2/wallet/support/messages   {text, operation_id?, images?} with Idempotency-Key
 *   POST /v2/wallet/support/read       the operators' answers read (the person's read receipt)
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { markSupportRead, sendSupportMessage, supportMessages } from './service.ts';

export default function supportRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'supportMessages', ({ auth, query, language }) =>
    supportMessages(ctx, auth.userId, query, language),
  );
  route(app, ctx, 'supportSend', ({ auth, body, idempotencyKey, language }) =>
    sendSupportMessage(ctx, auth.userId, body, idempotencyKey, language),
  );
  route(app, ctx, 'supportRead', async ({ auth }) => {
    await markSupportRead(ctx, auth.userId);
    return { status: 'success', unread: 0 };
  });
}
