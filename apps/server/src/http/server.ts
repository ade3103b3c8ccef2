/**
 * The one builder of a Fastify instance both servers start from (the public app, app.ts, and the back
 * office's, ops/server.ts): logging without secrets, the body limit, the proxy's client address, one
 * request id, the contract's error shape for every refusal, and each answer's security headers.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { type ErrorCode, errorMessage, httpStatusOf } from '@e-wallet/contract';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppContext } from '../context.ts';
import { registerErrorHandling, sendError } from './errors.ts';
import { decorateRequests } from './route.ts';

/**
 * The headers helmet's middleware sets, worked out once (its options make them the same for every
 * request).
 */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** A request id taken from a proxy: short, and nothing a log reader could mistake for other text. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request bodies are small JSON documents; anything larger is refused (docs/decisions/security-rules.md, 'Security
 * baselines').
 */
export const BODY_LIMIT = 64 * 1024;

/** Log lines carry no secrets: no headers with tokens, no bodies, no query strings. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[hidden]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
    },
  };
}

/**
 * TRUST_PROXY as Fastify reads it: a hop count trusts that many proxies nearest the server (as
 * Fastify does for a number: `hop < n`), a list trusts those proxy addresses; the client's own
 * entries further left are never believed.
 */
export function trustProxyOption(setting: false | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting;
}

/** HSTS only where the server is reached over HTTPS in production. */
export function hstsOption(ctx: AppContext): { maxAge: number; includeSubDomains: boolean } | false {
  return ctx.config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false;
}

export interface ServerOptions {
  logger?: boolean;
  /** The security headers of a request's answer, worked out once per kind of answer. */
  headers: (request: FastifyRequest) => Record<string, string>;
}

export function createServer(ctx: AppContext, options: ServerOptions): FastifyInstance {
  const { config } = ctx;
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    bodyLimit: BODY_LIMIT,
    // The client's address behind the balancer: sign-ins and limits are counted by it.
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // Per-request lines only at debug: at info the log is about events, not traffic.
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // One id per request across the instances: the balancer's X-Request-Id (deploy/haproxy.cfg)
    // when it looks like one, else a new one; every log line of the request and its answer carry it.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests Node's parser refuses before Fastify sees them (headers over 16 KiB: 431, malformed:
    // 400) still answer in the contract's error shape, in Russian (no headers could be read).
    clientErrorHandler: (error: NodeJS.ErrnoException & { bytesParsed?: number }, socket) => {
      if (!socket.writable) return socket.destroy();
      const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'VALIDATION_ERROR';
      const body = JSON.stringify({ status: 'error', code, message: errorMessage(code, 'ru') });
      const status = httpStatusOf(code);
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // The router's own refusals (a malformed %-escape, an over-long path parameter) in the error shape too.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'NOT_FOUND' : 'VALIDATION_ERROR');
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  decorateRequests(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(options.headers(request));
    reply.header('x-request-id', request.id);
    done();
  });
  return app;
}
