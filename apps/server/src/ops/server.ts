/**
 * The back office's own server (docs/decisions/back-office.md, 'The operators' back office'): the operators' API under
 * /ops/v1 and the back office app (apps/backoffice/dist), on OPS_HOST:OPS_PORT, never on the public port.
 * Built by the public app's builder (http/server.ts) with its own CSP: self only, no third-party host.
 * Every call but the sign-in needs an operator's token, and the role that opsCalls names for it (a wallet
 * user's token is no operator's: INVALID_TOKEN). Plugins first, then each concern's routes (routes/).
 */
import { existsSync } from 'node:fs';
import { type OpsCallName, opsCalls } from '@e-wallet/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { sendError } from '../http/errors.ts';
import { createServer, helmetHeaders, hstsOption } from '../http/server.ts';
import operator from './plugins/operator.ts';
import antifraud from './routes/antifraud.ts';
import identifications from './routes/identifications.ts';
import jobs from './routes/jobs.ts';
import merchants from './routes/merchants.ts';
import operators from './routes/operators.ts';
import payouts from './routes/payouts.ts';
import people from './routes/people.ts';
import refunds from './routes/refunds.ts';
import signIn from './routes/sign-in.ts';
import support from './routes/support.ts';

const ROUTES = [
  signIn,
  people,
  identifications,
  refunds,
  payouts,
  operators,
  antifraud,
  support,
  jobs,
  merchants,
];

/** JSON with bigints as text: database rows may carry them. */
function serialize(payload: unknown): string {
  return JSON.stringify(payload, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
}

export async function buildOpsApp(
  ctx: AppContext,
  options: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  const headers = {
    ...helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      strictTransportSecurity: hstsOption(ctx),
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    }),
    // Nothing of the back office is kept by a browser or a proxy: it shows people's data.
    'cache-control': 'no-store',
  };
  const app = createServer(ctx, { ...options, headers: () => headers });
  app.setReplySerializer(serialize);

  // Every call of the contract gets its route: a call left out stops the server at start.
  const routed = new Set<string>();
  app.addHook('onRoute', (route) => {
    routed.add(`${route.method} ${route.url}`);
  });
  await app.register(operator);
  for (const routes of ROUTES) await app.register(routes, { ctx });
  const missing = (Object.keys(opsCalls) as OpsCallName[]).filter(
    (name) => !routed.has(`${opsCalls[name].method} ${opsCalls[name].path}`),
  );
  if (missing.length > 0) throw new Error(`ops calls without a route: ${missing.join(', ')}`);

  const dist = ctx.config.BACKOFFICE_DIST;
  const hasApp = !!dist && existsSync(`${dist}/index.html`);
  if (hasApp)
    await app.register(fastifyStatic, { root: dist, wildcard: false, index: false, preCompressed: false });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (hasApp && request.method === 'GET' && !path.startsWith('/ops/') && !/\.[a-z0-9]+$/i.test(path))
      return reply.sendFile('index.html');
    return sendError(request, reply, 'NOT_FOUND');
  });
  return app;
}
