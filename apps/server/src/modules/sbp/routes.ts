/**
 * СБП calls (docs/decisions/sbp.md):
 *   GET  /v2/wallet/sbp/banks      the participants, the person's recent banks first
 *   POST /v2/wallet/sbp/check      whether a transfer can go through, before the PIN, with the recipient's name
 *   POST /v2/wallet/sbp/transfer   send by phone to another bank (PIN or passkey, Idempotency-Key)
 * The receipt afterwards is the withdrawal's (GET /v2/wallet/withdrawal/:id): it is one of the person's payouts.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { banksFor } from './banks.ts';
import { checkSbp, sbpTransfer } from './service.ts';

export default function sbpRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'sbpBanks', async ({ auth }) => ({ results: await banksFor(ctx, auth.userId) }));

  route(app, ctx, 'sbpCheck', ({ auth, body, language }) => checkSbp(ctx, auth.userId, body, language));

  route(app, ctx, 'sbpTransfer', ({ auth, body, idempotencyKey, language }) =>
    sbpTransfer(ctx, auth.userId, body, { idempotencyKey, language, sessionId: auth.sessionId }),
  );
}
