/** The wallet calls of the contract's table: accounts, history and statistics of the signed-in user. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { route } from '../../http/route.ts';
import {
  accountView,
  openUserAccount,
  ownAccount,
  statOf,
  transactionOf,
  transactionsOf,
  walletOf,
} from './service.ts';

export default function walletRoutes(app: FastifyInstance, ctx: AppContext): void {
  const ids = opaqueIds(ctx.config);
  route(app, ctx, 'wallet', (call) => walletOf(ctx.db, call.auth.userId));
  route(app, ctx, 'walletList', (call) => walletOf(ctx.db, call.auth.userId));
  route(app, ctx, 'openAccount', (call) => openUserAccount(ctx, call.auth.userId, call.body.currency_code), {
    status: 201,
  });
  route(app, ctx, 'account', async (call) =>
    accountView(await ownAccount(ctx.db, call.auth.userId, call.params.id)),
  );
  route(app, ctx, 'transactions', (call) =>
    transactionsOf(ctx.db, call.auth.userId, call.query, call.language, ids),
  );
  route(app, ctx, 'transaction', (call) =>
    transactionOf(ctx.db, call.auth.userId, call.params.id, call.language),
  );
  route(app, ctx, 'stat', (call) => statOf(ctx.db, call.auth.userId, call.query, call.language));
}
