/** The passkey calls: list, add (options, then the browser's credential), remove, and confirm. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  confirmOptions,
  confirmPasskey,
  deletePasskey,
  listPasskeys,
  registerOptions,
  registerPasskey,
} from './service.ts';

export default function passkeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'passkeys', (call) => listPasskeys(ctx, call.auth.userId));
  route(app, ctx, 'passkeyRegisterOptions', (call) =>
    registerOptions(ctx, call.auth.userId, call.body, call.language),
  );
  route(app, ctx, 'passkeyRegister', (call) =>
    registerPasskey(ctx, call.auth.userId, call.body, call.language),
  );
  route(app, ctx, 'deletePasskey', (call) =>
    deletePasskey(ctx, call.auth.userId, call.params.id, call.language),
  );
  route(app, ctx, 'passkeyConfirmOptions', (call) => confirmOptions(ctx, call.auth.userId));
  route(app, ctx, 'passkeyConfirm', (call) =>
    confirmPasskey(ctx, call.auth.userId, call.body, call.language),
  );
}
