/**
 * Transfers between wallet users:
 *   GET  /v2/wallet/transfer/recipient?phone=...   the recipient's masked name
 *   POST /v2/wallet/transfer                       send money (PIN, Idempotency-Key)
 *   POST /v2/wallet/transfer/check                 whether it can go through, before the PIN
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { checkTransfer, findRecipient, transferMoney } from './service.ts';

export default function transferRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'recipient', async ({ auth, query }) => {
    const recipient = await findRecipient(ctx, auth.userId, query.phone);
    return { status: 'success', name: recipient.name, phone: recipient.phone };
  });

  route(app, ctx, 'transfer', ({ auth, body, idempotencyKey, language }) =>
    transferMoney(ctx, auth.userId, body, { idempotencyKey, language, sessionId: auth.sessionId }),
  );
  route(app, ctx, 'transferCheck', ({ auth, body, language }) =>
    checkTransfer(ctx, auth.userId, body, language),
  );
}
