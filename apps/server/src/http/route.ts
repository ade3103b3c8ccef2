/**
 * Binds one call of the contract's table to its handler: the contract's schemas validate the
 * request and shape the answer (and feed OpenAPI), the token is checked for 'token' calls,
 * and the handler gets a typed request. Modules register every route through this.
 */
import {
  type AnswerOf,
  type BodyOut,
  type CallName,
  calls,
  ErrorBody,
  HeldAnswer,
  type Language,
  type ParamsOut,
  type QueryOut,
} from '@e-wallet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { findSession, type SessionRef } from '../sessions/tokens.ts';
import { languageOf } from './errors.ts';
import { CallHeld } from './held.ts';

export interface CallRequest<N extends CallName> {
  body: BodyOut<N>;
  query: QueryOut<N>;
  params: ParamsOut<N>;
  /** The signed-in session: present on every 'token' call. */
  auth: SessionRef;
  language: Language;
  ip: string;
  userAgent: string;
  /** The client's Idempotency-Key header, on money-moving calls. */
  idempotencyKey: string | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session of a 'token' call, set before its body is validated (decorateRequests). */
    session: SessionRef | null;
  }
}

/** Declares what `route` keeps on a request; app.ts calls it once, before any route is added. */
export function decorateRequests(app: FastifyInstance): void {
  app.decorateRequest('session', null);
}
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Token\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The session of a request's `Authorization: Token ...` header, or INVALID_TOKEN. */
export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<SessionRef> {
  const token = tokenOf(request);
  const session = token ? await findSession(ctx.db, token, ctx.clock.now()) : null;
  if (!session) throw new AppError('INVALID_TOKEN');
  return session;
}

export function route<N extends CallName>(
  app: FastifyInstance,
  ctx: AppContext,
  name: N,
  handler: (call: CallRequest<N>) => Promise<AnswerOf<N>>,
  options: {
    status?: number;
    /**
     * Who may make a 'merchant' call (the merchant API's HTTP Basic): checked, as a token is, before the
     * request is validated; its owner keeps what it found on the request.
     */
    authenticate?: (request: FastifyRequest) => Promise<void>;
  } = {},
): void {
  const call = calls[name];
  const schema: Record<string, unknown> = {
    operationId: name,
    summary: call.summary,
    tags: [call.tag],
    response: {
      [options.status ?? 200]: call.answer,
      // A money call may be held by the antifraud check (http/held.ts).
      ...('idempotent' in call && call.idempotent ? { 202: HeldAnswer } : {}),
      '4XX': ErrorBody,
    },
  };
  if ('body' in call) schema.body = call.body;
  if ('query' in call) schema.querystring = call.query;
  if ('params' in call) schema.params = call.params;
  if (call.access === 'token') schema.security = [{ token: [] }];
  if (call.access === 'merchant') {
    if (!options.authenticate) throw new Error(`${name}: a merchant call needs its authenticate`);
    schema.security = [{ merchant: [] }];
  }
  // The token is checked before the request is validated: a caller without one learns nothing more.
  // A call with nothing to validate checks it in its handler, one hook fewer per request.
  const validates = 'body' in call || 'query' in call || 'params' in call;
  const authInHandler = call.access === 'token' && !validates;

  app.route({
    method: call.method,
    url: call.path,
    schema,
    ...('bodyLimit' in call ? { bodyLimit: call.bodyLimit } : {}),
    // The contract's calls read JSON only. A browser may send a form or text/plain to any site
    // without a CORS preflight; refusing them before anything is read keeps other sites' pages from
    // making a signed-in visitor's browser call the API.
    onRequest:
      'body' in call
        ? async (request) => {
            const type = request.headers['content-type'];
            if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type))
              throw new AppError('UNSUPPORTED_MEDIA_TYPE');
          }
        : undefined,
    preValidation:
      call.access === 'token' && validates
        ? async (request) => {
            request.session = await authenticate(ctx, request);
          }
        : call.access === 'merchant'
          ? options.authenticate
          : undefined,
    handler: async (request, reply) => {
      const auth = authInHandler
        ? await authenticate(ctx, request)
        : (request.session ?? (null as unknown as SessionRef));
      let idempotencyKey: string | null = null;
      if ('idempotent' in call && call.idempotent) {
        const header = request.headers['idempotency-key'];
        if (header !== undefined) {
          if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header))
            throw new AppError('IDEMPOTENCY_KEY_INVALID');
          idempotencyKey = header;
        }
      }
      let answer: AnswerOf<N>;
      try {
        answer = await handler({
          body: request.body as BodyOut<N>,
          query: request.query as QueryOut<N>,
          params: request.params as ParamsOut<N>,
          auth,
          language: languageOf(request),
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          idempotencyKey,
          request,
          reply,
        });
      } catch (error) {
        if (!(error instanceof CallHeld)) throw error;
        reply.code(202);
        return error.answer;
      }
      reply.code(options.status ?? 200);
      return answer;
    },
  });
}
