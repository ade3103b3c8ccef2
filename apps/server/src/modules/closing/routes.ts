/**
 * GET and POST /v2/wallet/close: what closing would do, and closing
 * (docs/decisions/account.md#a-persons-account).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { closePreview, closeWallet } from './service.ts';

export default function closingRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'closePreview', (call) => closePreview(ctx, call.auth.userId, call.language));
  route(app, ctx, 'closeWallet', (call) => closeWallet(ctx, call.auth, call.body, call.language));
}
