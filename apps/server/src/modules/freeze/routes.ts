/**
 * Self-protection calls:
 *   POST /v2/wallet/freeze                      freeze the wallet (no PIN: it only protects)
 *   POST /v2/wallet/unfreeze                    lift it with a fresh SMS code and the PIN
 *   POST /v2/wallet/transaction/:id/report      'Это не я' on an outgoing operation
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { freezeWallet, reportOperation, unfreezeWallet } from './service.ts';

export default function freezeRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'freeze', ({ auth, language }) => freezeWallet(ctx, auth, language));
  route(app, ctx, 'unfreeze', ({ auth, body, language }) => unfreezeWallet(ctx, auth, body, language));
  route(app, ctx, 'transactionReport', ({ auth, params, body, language }) =>
    reportOperation(ctx, auth, params.id, body, language),
  );
}
