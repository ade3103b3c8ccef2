/**
 * How the sandbox providers call back: a signed JSON request to one of this server's webhook
 * routes. By default it travels over HTTP to PUBLIC_URL, as a real provider's would; the sandbox
 * routes replace that with an in-process `inject` that still goes through the signed route.
 */
import type { FastifyInstance } from 'fastify';
import { SIGNATURE_HEADER, signPayload } from './signature.ts';

export interface WebhookRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one webhook request; answers the HTTP status. */
export type WebhookTransport = (request: WebhookRequest) => Promise<number>;

/** The exact request a provider sends: JSON body and its HMAC signature header. */
export function signedWebhookRequest(
  secret: string,
  path: string,
  payload: object,
  now: Date,
): WebhookRequest {
  const body = JSON.stringify(payload);
  return {
    path,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(secret, body, now) },
    body,
  };
}

/** Over HTTP to the server's public address. */
export function httpTransport(publicUrl: string): WebhookTransport {
  return async ({ path, headers, body }) => {
    const response = await fetch(`${publicUrl}${path}`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return response.status;
  };
}

/** Through this server's own route without the network; a refusal is logged for the operator. */
export function inProcessTransport(app: FastifyInstance, provider: string): WebhookTransport {
  return async ({ path, headers, body }) => {
    const response = await app.inject({ method: 'POST', url: path, headers, payload: body });
    if (response.statusCode >= 300) {
      app.log.warn({ status: response.statusCode }, `sandbox ${provider} webhook was not accepted`);
    }
    return response.statusCode;
  };
}

/** Sends one request; 0 when it could not be sent (the state stays fetchable from the provider). */
export async function deliver(transport: WebhookTransport, request: WebhookRequest): Promise<number> {
  try {
    return await transport(request);
  } catch {
    return 0;
  }
}
