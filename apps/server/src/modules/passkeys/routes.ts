/** The passkey calls: list, add (options, then the browser's credential), remove, and confirm. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  confirmOptions,
  confirmPasskey,
  deletePasskey,
  keepPasskey,
  listPasskeys,
  registerOptions,
  registerPasskey,
} from './service.ts';
import { loginWithPasskey, passkeyLoginOptions } from './sign-in.ts';

export default function passkeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'passkeys', (call) => listPasskeys(ctx, call.auth.userId, call.language));
  route(app, ctx, 'passkeyRegisterOptions', (call) =>
    registerOptions(ctx, call.auth.userId, call.body, call.language),
  );
  route(app, ctx, 'passkeyRegister', (call) =>
    registerPasskey(ctx, call.auth.userId, call.body, call.language, call.userAgent),
  );
  route(app, ctx, 'passkeyKeep', (call) =>
    keepPasskey(ctx, call.auth.userId, call.params.id, call.body, call.language),
  );
  route(app, ctx, 'deletePasskey', (call) =>
    deletePasskey(ctx, call.auth.userId, call.params.id, call.language),
  );
  const client = (call: { ip: string; userAgent: string; language: 'ru' | 'en' }) => ({
    ip: call.ip,
    userAgent: call.userAgent,
    language: call.language,
  });
  route(app, ctx, 'passkeyLoginOptions', (call) => passkeyLoginOptions(ctx, client(call)));
  route(app, ctx, 'passkeyLogin', (call) => loginWithPasskey(ctx, call.body, client(call)));
  route(app, ctx, 'passkeyConfirmOptions', (call) => confirmOptions(ctx, call.auth.userId));
  route(app, ctx, 'passkeyConfirm', (call) =>
    confirmPasskey(ctx, call.auth.userId, call.body, call.language),
  );
}
