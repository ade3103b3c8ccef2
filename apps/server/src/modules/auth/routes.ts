/**
 * The auth calls of the contract's table (docs/product.md#calls, docs/decisions/api.md#the-api and
 * docs/decisions/security-rules.md#security-baselines).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { isAppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import { authInfo } from './info.ts';
import { message } from './messages.ts';
import { changePin, checkPin, setPin } from './pin.ts';
import {
  type ClientMeta,
  confirmRegistration,
  endOtherSessions,
  endSession,
  listSessions,
  login,
  logout,
  register,
  sendCode,
} from './service.ts';
import { securityChanged } from './step-up.ts';

export default function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The auth calls read JSON only. A browser may send a form or text/plain to any site without
  // asking (no CORS preflight); refusing them keeps other sites from making visitors' browsers
  // request SMS codes (SMS pumping from many addresses). An encapsulated scope keeps the
  // server's other parsers (the sandbox pages' forms) as they are.
  app.register(async (scoped) => {
    scoped.removeContentTypeParser(['application/x-www-form-urlencoded', 'text/plain']);
    authCalls(scoped, ctx);
  });
}

function authCalls(app: FastifyInstance, ctx: AppContext): void {
  const client = (call: { ip: string; userAgent: string; language: ClientMeta['language'] }): ClientMeta => ({
    ip: call.ip,
    userAgent: call.userAgent,
    language: call.language,
  });

  // An SMS gateway failure is the operator's business: logged with the provider, never the code or text.
  const reportingGateway = async <T>(
    call: { request: FastifyRequest },
    send: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      if (isAppError(error) && error.code === 'PROVIDER_UNAVAILABLE')
        call.request.log.warn({ provider: ctx.sms.id, reason: error.message }, 'SMS provider failed');
      throw error;
    }
  };

  route(app, ctx, 'register', (call) => reportingGateway(call, () => register(ctx, call.body, client(call))));
  route(app, ctx, 'registerConfirm', (call) => confirmRegistration(ctx, call.body, client(call)));
  route(app, ctx, 'sendCode', (call) =>
    reportingGateway(call, () => sendCode(ctx, call.body.phone, client(call), call.body.purpose)),
  );
  route(app, ctx, 'login', (call) => login(ctx, call.body, client(call)));

  route(app, ctx, 'setPin', async (call) => {
    await setPin(ctx, call.auth.userId, call.body.pin_code);
    return { status: 'success', message: message('pinSet', call.language) };
  });
  route(app, ctx, 'changePin', async (call) => {
    await changePin(ctx, call.auth.userId, call.body.old_pin, call.body.new_pin);
    await securityChanged(ctx, call.auth.userId, 'pin_changed', 'pin', call.language);
    return { status: 'success', message: message('pinChanged', call.language) };
  });
  route(app, ctx, 'verifyPin', async (call) => {
    await checkPin(ctx, call.auth.userId, call.body.pin);
    return { status: 'success', message: message('pinCorrect', call.language) };
  });

  route(app, ctx, 'authInfo', (call) => authInfo(ctx.db, ctx, call.auth.userId));

  route(app, ctx, 'logout', async (call) => {
    await logout(ctx, call.auth);
    return { status: 'success', message: message('signedOut', call.language) };
  });
  route(app, ctx, 'sessions', (call) => listSessions(ctx, call.auth.userId, call.auth.sessionId));
  route(app, ctx, 'endOtherSessions', async (call) => {
    await endOtherSessions(ctx, call.auth.userId, call.auth.sessionId);
    return { status: 'success', message: message('otherSessionsEnded', call.language) };
  });
  route(app, ctx, 'endSession', async (call) => {
    await endSession(ctx, call.auth.userId, call.params.id);
    return { status: 'success', message: message('sessionEnded', call.language) };
  });
}
