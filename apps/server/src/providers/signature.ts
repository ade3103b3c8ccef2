/**
 * Signatures of provider callbacks (webhooks), shared by every provider: an HMAC-SHA-256 with the
 * server's WEBHOOK_SECRET over the timestamp and the exact bytes of the body, sent as
 *
 *   X-Signature: t=<unix seconds>,v1=<hex>
 *
 * where v1 = HMAC-SHA-256(secret, `${t}.${rawBody}`). Several v1 values may be sent (secret rotation);
 * one match is enough. A timestamp further than five minutes from the server's clock, in either
 * direction, is refused, so a captured callback cannot be replayed later. Comparison is constant-time.
 *
 * Routes use it through `registerSignedRoutes`: the signature is checked before the body is validated,
 * so an unsigned caller learns nothing about the schema, and a bad signature changes nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export const SIGNATURE_HEADER = 'x-signature';
/** How far a signature's timestamp may be from the server's clock, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** The X-Signature header value for a body sent at `now`. */
export function signPayload(secret: string, rawBody: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type SignatureProblem = 'missing' | 'malformed' | 'stale' | 'mismatch';

/** Checks a header against the exact raw body; answers null when valid, or what is wrong. */
export function checkSignature(
  secret: string,
  rawBody: string | undefined,
  header: string | string[] | undefined,
  now: Date,
): SignatureProblem | null {
  if (typeof header !== 'string' || header.length === 0 || rawBody === undefined) return 'missing';
  if (header.length > 1000) return 'malformed';
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 1) return 'malformed';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return 'malformed';
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return 'malformed';
      candidates.push(value.toLowerCase());
    }
  }
  if (timestamp === null || candidates.length === 0) return 'malformed';
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  let matched = false;
  for (const candidate of candidates) {
    // Every candidate is compared, in constant time, whatever the earlier ones gave.
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  return matched ? null : 'mismatch';
}

/** Verifies a request's signature against its raw body, or throws WEBHOOK_SIGNATURE_INVALID (401). */
export function assertSignedRequest(ctx: AppContext, request: FastifyRequest): void {
  const rawBody = (request as { rawBody?: string }).rawBody;
  const problem = checkSignature(
    ctx.config.WEBHOOK_SECRET,
    rawBody,
    request.headers[SIGNATURE_HEADER],
    ctx.clock.now(),
  );
  if (problem) {
    request.log.warn({ problem, path: request.url.split('?')[0] }, 'webhook signature refused');
    throw new AppError('WEBHOOK_SIGNATURE_INVALID', {}, `webhook signature ${problem}`);
  }
}

/**
 * Registers a sandbox provider's callback routes in their own scope whose every request must carry a
 * valid signature; it is checked before body validation. Our HMAC is the sandboxes' way only: when the
 * setting names a real provider, the routes do not exist (404), and that provider's notifications are
 * accepted only in its own way (YooKassa: the object asked from its API before any money moves).
 *
 *   await registerSignedRoutes(app, ctx, 'PAYMENTS_PROVIDER', (scope) => route(scope, ctx, 'paymentsWebhook', handler));
 */
export async function registerSignedRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  provider: 'PAYMENTS_PROVIDER' | 'PAYOUTS_PROVIDER' | 'KYC_PROVIDER',
  register: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  if (ctx.config[provider] !== 'sandbox') return;
  await app.register(async (scope) => {
    scope.addHook('preValidation', async (request) => {
      assertSignedRequest(ctx, request);
    });
    await register(scope);
  });
}
