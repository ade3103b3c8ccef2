/**
 * The back office's own server (docs/decisions.md section 12): the operators' API under /ops/v1 and the
 * back office app (apps/backoffice/dist), on OPS_HOST:OPS_PORT, never on the public port. Its own CSP:
 * self only, no third-party host. Every call but the sign-in needs an operator's token, and the role
 * that opsCalls names for it (a wallet user's token is no operator's: INVALID_TOKEN).
 */
import { existsSync } from 'node:fs';
import { languageFrom, type OpsCallName, opsCalls, roleAllows } from '@e-wallet/contract';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { BODY_LIMIT, helmetHeaders, loggerOptions, trustProxyOption } from '../app.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { registerErrorHandling, sendError } from '../http/errors.ts';
import {
  confirmFraudEntry,
  fraudListPage,
  holdsPage,
  proposeFraudEntry,
  refuseHeld,
  releaseHold,
  removeFraudEntry,
} from './antifraud.ts';
import { decideIdentification, identificationPhotos } from './identifications.ts';
import { decideJob, jobProblems, jobsPage } from './jobs.ts';
import { auditPage, identificationsPage, payoutsPage, refundsPage, usersPage } from './lists.ts';
import {
  changeRole,
  confirmRole,
  disableOperator,
  finishSetup,
  inviteOperator,
  listOperators,
  type Operator,
  operatorOf,
  resetTotp,
  signIn,
  signOut,
  startSetup,
  unlockOperator,
} from './operators.ts';
import { decidePayout } from './payouts.ts';
import { closeReport, setFrozen, userCard } from './people.ts';
import { reconciliation } from './reconciliation.ts';
import { approveRefund, proposeRefund, rejectRefund } from './refunds.ts';
import {
  closeSupportConversation,
  closeSupportEvents,
  conversationMessages,
  conversationsPage,
  replyToConversation,
  supportEvents,
} from './support.ts';

type Signed = Operator & { sessionId: string };
interface Call {
  op: Signed;
  // biome-ignore lint/suspicious/noExplicitAny: each call's schema in opsCalls has validated these
  body: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  query: any;
  params: { id: string; queue: string };
  request: FastifyRequest;
  reply: FastifyReply;
}

function handlers(ctx: AppContext): Record<OpsCallName, (call: Call) => Promise<unknown>> {
  return {
    login: ({ body, request }) => signIn(ctx, body, request.ip),
    logout: async ({ op }) => {
      await signOut(ctx, op);
      return { status: 'success' };
    },
    me: async ({ op }) => ({ id: op.id, email: op.email, role: op.role }),
    users: ({ query }) => usersPage(ctx, query),
    user: ({ params }) => userCard(ctx.db, ctx, params.id),
    freeze: ({ op, params, body }) => setFrozen(ctx, op, params.id, 'freeze', body.reason),
    unfreeze: ({ op, params, body }) => setFrozen(ctx, op, params.id, 'unfreeze', body.reason),
    reportClose: ({ op, params, body }) => closeReport(ctx, op, params.id, body.reason),
    identifications: ({ op, query }) => identificationsPage(ctx, op.role, query),
    identificationPhotos: async ({ op, params }) => ({
      photos: await identificationPhotos(ctx, op, params.id),
    }),
    identificationApprove: ({ op, params }) =>
      decideIdentification(ctx, op, params.id, { action: 'approve' }),
    identificationReject: ({ op, params, body }) =>
      decideIdentification(ctx, op, params.id, { action: 'reject', reason: body.reason }),
    refunds: ({ query }) => refundsPage(ctx, query),
    refundPropose: ({ op, body }) => proposeRefund(ctx, op, body),
    refundApprove: ({ op, params }) => approveRefund(ctx, op, params.id),
    refundReject: ({ op, params, body }) => rejectRefund(ctx, op, params.id, body.reason),
    payouts: ({ query }) => payoutsPage(ctx, query),
    payoutSettle: ({ op, params, body }) => decidePayout(ctx, op, params.id, 'settle', body.reason),
    payoutRelease: ({ op, params, body }) => decidePayout(ctx, op, params.id, 'release', body.reason),
    audit: ({ query }) => auditPage(ctx, query),
    reconciliation: ({ query }) => reconciliation(ctx, query.date),
    operators: ({ query }) => listOperators(ctx, query),
    operatorCreate: ({ op, body }) => inviteOperator(ctx, op, body),
    operatorUnlock: async ({ op, params }) => {
      await unlockOperator(ctx, op, params.id);
      return { status: 'success' };
    },
    operatorDisable: ({ op, params, body }) => disableOperator(ctx, op, params.id, body.reason),
    operatorRole: ({ op, params, body }) => changeRole(ctx, op, params.id, body.role),
    operatorRoleConfirm: ({ op, params }) => confirmRole(ctx, op, params.id),
    operatorTotpReset: ({ op, params }) => resetTotp(ctx, op, params.id),
    setupStart: ({ body }) => startSetup(ctx, body.token),
    setupFinish: ({ body, request }) => finishSetup(ctx, body, request.ip),
    // docs/decisions.md section 21
    holds: ({ query }) => holdsPage(ctx, query),
    holdRelease: ({ op, params, body }) => releaseHold(ctx, op, params.id, body.reason),
    holdRefuse: ({ op, params, body }) => refuseHeld(ctx, op, params.id, body.reason),
    fraudList: ({ query }) => fraudListPage(ctx, query),
    fraudListPropose: ({ op, body }) => proposeFraudEntry(ctx, op, body),
    fraudListConfirm: ({ op, params }) => confirmFraudEntry(ctx, op, params.id),
    fraudListRemove: ({ op, params, body }) => removeFraudEntry(ctx, op, params.id, body.reason),
    supportConversations: ({ query }) => conversationsPage(ctx, query),
    supportConversation: ({ params, query, request }) =>
      conversationMessages(ctx, params.id, query, languageFrom(request.headers['accept-language'])),
    supportReply: ({ op, params, body }) => replyToConversation(ctx, op, params.id, body.text),
    supportClose: ({ op, params }) => closeSupportConversation(ctx, op, params.id),
    supportEvents: async ({ reply }) => {
      await supportEvents(ctx, reply);
      return undefined;
    },
    jobs: () => jobsPage(ctx),
    jobProblems: ({ params }) => jobProblems(ctx, params.queue),
    jobRetry: ({ op, params }) => decideJob(ctx, op, params.queue, params.id, 'retry'),
    jobCancel: ({ op, params }) => decideJob(ctx, op, params.queue, params.id, 'cancel'),
  };
}

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return /^Token\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}

/** JSON with bigints as text: database rows may carry them. */
function serialize(payload: unknown): string {
  return JSON.stringify(payload, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
}

export async function buildOpsApp(
  ctx: AppContext,
  options: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    bodyLimit: BODY_LIMIT,
    // The client's address as the public server reads it: the sign-in is throttled by it.
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' }),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setReplySerializer(serialize);
  registerErrorHandling(app);

  const hsts = config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false;
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
      strictTransportSecurity: hsts,
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    }),
    // Nothing of the back office is kept by a browser or a proxy: it shows people's data.
    'cache-control': 'no-store',
  };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  const run = handlers(ctx);
  for (const [name, call] of Object.entries(opsCalls) as Array<
    [OpsCallName, (typeof opsCalls)[OpsCallName]]
  >) {
    const schema: Record<string, unknown> = {};
    if ('body' in call) schema.body = call.body;
    if ('query' in call) schema.querystring = call.query;
    if ('params' in call) schema.params = call.params;
    app.route({
      method: call.method,
      url: call.path,
      schema,
      onRequest: async (request) => {
        // JSON only: a form posted by another site's page is refused before anything is read.
        const type = request.headers['content-type'];
        if ('body' in call && type !== undefined && !/^application\/json\s*(;|$)/i.test(type))
          throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        if (call.permission === 'public') return;
        // The token and the role before the request is validated: a caller without them learns nothing.
        const op = await operatorOf(ctx, tokenOf(request));
        if (call.permission !== 'signed_in' && !roleAllows(op.role, call.permission))
          throw new AppError('OPERATOR_FORBIDDEN');
        (request as { operator?: Signed }).operator = op;
      },
      handler: async (request, reply) =>
        run[name]({
          op: (request as { operator?: Signed }).operator as Signed,
          body: request.body,
          query: request.query,
          params: request.params as { id: string; queue: string },
          request,
          reply,
        }),
    });
  }

  // Operators' open support streams end with the server, so closing never waits on them.
  app.addHook('preClose', async () => closeSupportEvents(ctx));

  const dist = config.BACKOFFICE_DIST;
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
