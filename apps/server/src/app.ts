/**
 * Builds the public server instance from a context (configuration, database, providers, clock), on the
 * builder the back office's server shares (http/server.ts). Tests build it too and call it with `inject`. Plugins in a fixed order: external, then app,
 * then the modules' routes (each module's `routes` plugin, from its public face), then the single-page app.
 */
import { existsSync } from 'node:fs';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import type { Db } from './db/client.ts';
import { sendError, sendUnavailable } from './http/errors.ts';
import { BODY_LIMIT, createServer, helmetHeaders, hstsOption } from './http/server.ts';
import { runsJobs } from './jobs/index.ts';
import * as antifraud from './modules/antifraud/index.ts';
import * as auth from './modules/auth/index.ts';
import * as budgets from './modules/budgets/index.ts';
import * as categories from './modules/categories/index.ts';
import * as closing from './modules/closing/index.ts';
import * as documents from './modules/documents/index.ts';
import * as events from './modules/events/index.ts';
import * as exchange from './modules/exchange/index.ts';
import * as freeze from './modules/freeze/index.ts';
import * as goals from './modules/goals/index.ts';
import * as holds from './modules/holds/index.ts';
import * as identification from './modules/identification/index.ts';
import * as merchants from './modules/merchants/index.ts';
import * as myData from './modules/my-data/index.ts';
import * as notifications from './modules/notifications/index.ts';
import * as passkeys from './modules/passkeys/index.ts';
import * as payment from './modules/payment/index.ts';
import * as payouts from './modules/payouts/index.ts';
import * as push from './modules/push/index.ts';
import * as requests from './modules/requests/index.ts';
import * as sandboxKyc from './modules/sandbox-kyc/index.ts';
import * as sandboxPages from './modules/sandbox-pages/index.ts';
import * as sandboxPay from './modules/sandbox-pay/index.ts';
import * as sandboxSms from './modules/sandbox-sms/index.ts';
import * as sbp from './modules/sbp/index.ts';
import * as schedules from './modules/schedules/index.ts';
import * as support from './modules/support/index.ts';
import * as templates from './modules/templates/index.ts';
import * as terms from './modules/terms/index.ts';
import * as topup from './modules/topup/index.ts';
import * as transfer from './modules/transfer/index.ts';
import * as wallet from './modules/wallet/index.ts';
import * as withdrawal from './modules/withdrawal/index.ts';

/** Every module's routes, each a named plugin declaring what it needs registered before it. */
const MODULE_ROUTES = [
  auth.routes,
  budgets.routes,
  categories.routes,
  closing.routes,
  documents.routes,
  events.routes,
  exchange.routes,
  freeze.routes,
  goals.routes,
  identification.routes,
  merchants.routes,
  myData.routes,
  notifications.routes,
  passkeys.routes,
  payment.routes,
  payouts.routes,
  push.routes,
  requests.routes,
  sandboxPages.routes,
  sandboxKyc.routes,
  sandboxPay.routes,
  sandboxSms.routes,
  sbp.routes,
  schedules.routes,
  support.routes,
  templates.routes,
  terms.routes,
  topup.routes,
  transfer.routes,
  wallet.routes,
  withdrawal.routes,
  // docs/decisions/antifraud.md#antifraud-and-the-trusted-person
  antifraud.routes,
  holds.routes,
];

/** Paths the single-page app never owns: their unknown URLs answer NOT_FOUND, not the app's page. */
const API_PREFIXES = ['/v2', '/ops', '/sandbox', '/docs', '/healthz', '/readyz', '/version.json'];
/** The paths whose every answer is JSON (the sandbox and the docs also serve pages). */
const JSON_PREFIXES = ['/v2', '/ops', '/healthz', '/readyz', '/version.json'];

/**
 * A path as the prefix checks read it: percent-escapes decoded, letters lower-cased, repeated slashes
 * one, so '/OPS/v1', '//v2/x' or '/%6Fps' are the API's, never the app's page.
 */
function canonicalPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {}
  return decoded.toLowerCase().replace(/\/{2,}/g, '/');
}

/** Whether a URL (a query allowed) is one of the prefixes or under one: '/v2', '/v2/x', '/v2?x', not '/v2x'. */
function underPrefix(url: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (!url.startsWith(prefix)) continue;
    const next = url.charCodeAt(prefix.length);
    // The prefix itself, or followed by '/' or '?'.
    if (Number.isNaN(next) || next === 47 || next === 63) return true;
  }
  return false;
}

export async function buildApp(
  ctx: AppContext,
  options: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  const { config } = ctx;
  const { pageHeaders, apiHeaders } = securityHeaders(ctx);
  const app = createServer(ctx, {
    ...options,
    headers: (request) => (underPrefix(request.url, JSON_PREFIXES) ? apiHeaders : pageHeaders),
  });

  // Keep the raw JSON text beside the parsed body: provider webhooks are signed over the exact bytes.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      (request as { rawBody?: string }).rawBody = body as string;
      parseJson(request, body as string, done);
    },
  );
  await app.register(formbody, { bodyLimit: BODY_LIMIT });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'E-Wallet API',
        version: config.appVersion,
        description: 'Generated from packages/contract',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <auth_token>' },
          merchant: { type: 'http', scheme: 'basic', description: 'merchant id : secret key (/merchant/v1)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // The API docs: off in production (nothing there a customer needs); elsewhere under the app's own
  // page headers (self-only CSP, frame-ancestors 'none'), not swagger-ui's laxer policy, and without
  // its call to the public validator.
  if (!config.production)
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: false,
      uiConfig: { validatorUrl: null },
    });

  // Liveness: the process answers. It does not touch the database, so a database failing over
  // never gets healthy instances restarted by whatever watches them.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', database: ctx.db.kind }));

  // Readiness: the database answers and takes writes (a standby, or a node just promoted and still
  // read-only, does not). A load balancer sends traffic only to ready instances (deploy/haproxy.cfg).
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const writable = await databaseWritable(ctx.db);
    if (!writable) return sendUnavailable(request, reply);
    return { status: 'ok', database: ctx.db.kind };
  });

  // The start-up version check (docs/product.md#states-and-transitions) must never read a cached answer.
  app.get('/version.json', { schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('Cache-Control', 'no-cache, no-store, must-revalidate')
      .header('Pragma', 'no-cache')
      .header('Expires', '0');
    return { version: config.appVersion };
  });

  const { metrics } = ctx;
  if (metrics) {
    // By the route's pattern ('/v2/wallet/transfers/:id'), so ids never become label values.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  for (const routes of MODULE_ROUTES) await app.register(routes, { ctx });
  // The modules declared their queues as they registered; one job system runs them
  // (docs/decisions/jobs.md#one-job-system).
  if (runsJobs(config)) {
    app.addHook('onReady', async () => {
      await ctx.jobs.start();
    });
    app.addHook('onClose', async () => {
      await ctx.jobs.stop();
    });
  }

  const webDist = config.WEB_DIST;
  const hasWeb = !!webDist && existsSync(`${webDist}/index.html`);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // One route per built file; everything else falls through to the app's index.html.
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its text files: sent to browsers that accept them,
      // a first visit downloads a third of the bytes, with no compression work per request.
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header(
          'Cache-Control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = underPrefix(canonicalPath(path), API_PREFIXES);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.[a-z0-9]+$/i.test(path);
    if (hasWeb && wantsPage) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 'NOT_FOUND');
  });

  return app;
}

/**
 * The public app's security headers, as helmet makes them, worked out once: they are the same for every
 * request of a kind (rebuilding them per request cost a seventh of the server's CPU; docs/performance.md#security-headers-worked-out-once).
 * Pages get the full set; the API's JSON answers, never rendered as documents, get the set OWASP's REST
 * guidance names (docs/security.md).
 */
function securityHeaders(ctx: AppContext): {
  pageHeaders: Record<string, string>;
  apiHeaders: Record<string, string>;
} {
  const hsts = hstsOption(ctx);
  const pageHeaders = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // HSTS only where the server is reached over HTTPS in production.
    strictTransportSecurity: hsts,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  const apiHeaders = {
    ...helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      strictTransportSecurity: hsts,
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
    'cache-control': 'no-store',
  };
  return { pageHeaders, apiHeaders };
}

/** Whether the database takes writes now: reachable, and not a standby or a node still read-only. */
async function databaseWritable(db: Db): Promise<boolean> {
  if (db.kind === 'pglite') return true;
  try {
    const { rows } = await db.query<{ read_only: string }>(
      "SELECT current_setting('transaction_read_only') AS read_only",
    );
    return rows[0]?.read_only === 'off';
  } catch {
    return false;
  }
}
