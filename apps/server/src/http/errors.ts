/**
 * Turns every failure into the contract's shape `{status: "error", code, message}` in the
 * request's language. Details of unexpected errors stay in the log; the client gets INTERNAL_ERROR.
 */
import {
  ERRORS,
  type ErrorCode,
  type ErrorParams,
  errorMessage,
  fieldLabel,
  httpStatusOf,
  type Language,
  languageFrom,
} from '@e-wallet/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client.ts';
import { isAppError } from '../errors.ts';

export function languageOf(request: FastifyRequest): Language {
  return languageFrom(request.headers['accept-language']);
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  params: ErrorParams = {},
): FastifyReply {
  const language = languageOf(request);
  const status = httpStatusOf(code);
  // Every 503 is temporary (a provider or the database away): it says when to try again.
  if (status === 503 && !reply.hasHeader('retry-after'))
    reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ status: 'error', code, message: errorMessage(code, language, params) });
}

/** Seconds a client waits before repeating a request the database's failover refused. */
export const RETRY_AFTER_SECONDS = 2;

/** SERVICE_UNAVAILABLE (503) with Retry-After: the database is failing over; repeat the same request. */
export function sendUnavailable(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(request, reply, 'SERVICE_UNAVAILABLE');
}

interface Issue {
  code: string;
  path: string[];
  keys: string[];
  missing: boolean;
  /** A refinement's own error code (`params: {error}` of its issue), when it is the contract's. */
  error: ErrorCode | null;
}

/**
 * The first validation issue as FIELD_REQUIRED / FIELD_INVALID naming the field as a person reads it,
 * or as the code its refinement names (a rule between fields, such as a schedule's phone or goal).
 */
function validationError(issues: Issue[], language: Language): { code: ErrorCode; params: ErrorParams } {
  const issue = issues[0];
  if (!issue) return { code: 'VALIDATION_ERROR', params: {} };
  if (issue.error) return { code: issue.error, params: {} };
  const key =
    issue.code === 'unrecognized_keys' && issue.keys?.[0]
      ? issue.keys[0]
      : [...issue.path].reverse().find((part) => !/^\d+$/.test(part));
  if (!key) return { code: 'VALIDATION_ERROR', params: {} };
  const field = fieldLabel(key, language);
  return { code: issue.missing ? 'FIELD_REQUIRED' : 'FIELD_INVALID', params: { field } };
}

function refinementError(params: unknown): ErrorCode | null {
  const error = (params as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' && Object.hasOwn(ERRORS, error) ? (error as ErrorCode) : null;
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) return sendError(request, reply, error.code, error.params);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map(
        (v): Issue => ({
          code: v.keyword,
          path: v.instancePath.split('/').filter(Boolean),
          keys: Array.isArray(v.params.keys) ? (v.params.keys as string[]) : [],
          missing: v.keyword === 'invalid_type' && /received undefined/.test(v.message ?? ''),
          error: refinementError(v.params.params),
        }),
      );
      const { code, params } = validationError(issues, languageOf(request));
      return sendError(request, reply, code, params);
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return sendError(request, reply, mapped);
    if (error instanceof SyntaxError) return sendError(request, reply, 'INVALID_JSON');
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(request, reply, 'RATE_LIMITED');
    if (status === 404) return sendError(request, reply, 'NOT_FOUND');
    if (status === 405) return sendError(request, reply, 'METHOD_NOT_ALLOWED');
    if (status >= 400 && status < 500) {
      request.log.info({ err: { code: error.code, message: error.message } }, 'request rejected');
      return sendError(request, reply, 'VALIDATION_ERROR');
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: { code: error.code, message: error.message } }, 'database unavailable');
      return sendUnavailable(request, reply);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(request, reply, 'INTERNAL_ERROR');
  });
}

/**
 * HAProxy's own answer when no instance can answer (deploy/haproxy.cfg's errorfile): the same
 * SERVICE_UNAVAILABLE a ready instance sends, as a whole HTTP response. deploy/errors/ holds these
 * (written by `npm run cluster -- errorfiles`, checked against this by test/deploy.test.ts).
 */
export function haproxyErrorFile(language: Language): string {
  const body = JSON.stringify({
    status: 'error',
    code: 'SERVICE_UNAVAILABLE',
    message: errorMessage('SERVICE_UNAVAILABLE', language),
  });
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    `Retry-After: ${RETRY_AFTER_SECONDS}`,
    '',
    body,
  ].join('\r\n');
}
