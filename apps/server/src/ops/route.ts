/**
 * Binds one call of the contract's `opsCalls` to its handler, typed from the call's schemas: JSON
 * only, then the operator's token and role (before the request is validated: a caller without them
 * learns nothing), then the schemas. Each concern's routes are a named plugin (routes/).
 */
import {
  type OpsBodyOut,
  type OpsCallName,
  type OpsParamsOut,
  type OpsQueryOut,
  opsCalls,
  roleAllows,
} from '@e-wallet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { OPERATOR_PLUGIN } from './plugins/operator.ts';
import { operatorOf, type SignedOperator } from './sessions.ts';

type OperatorOf<N extends OpsCallName> = (typeof opsCalls)[N]['permission'] extends 'public'
  ? null
  : SignedOperator;

export interface OpsCall<N extends OpsCallName> {
  op: OperatorOf<N>;
  body: OpsBodyOut<N>;
  query: OpsQueryOut<N>;
  params: OpsParamsOut<N>;
  request: FastifyRequest;
  reply: FastifyReply;
}

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return /^Token\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}

export function opsRoute<N extends OpsCallName>(
  app: FastifyInstance,
  ctx: AppContext,
  name: N,
  handler: (call: OpsCall<N>) => Promise<unknown>,
): void {
  const call: (typeof opsCalls)[OpsCallName] = opsCalls[name];
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
      const op = await operatorOf(ctx, tokenOf(request));
      if (call.permission !== 'signed_in' && !roleAllows(op.role, call.permission))
        throw new AppError('OPERATOR_FORBIDDEN');
      request.operator = op;
    },
    handler: async (request, reply) =>
      handler({
        op: request.operator as OperatorOf<N>,
        body: request.body as OpsBodyOut<N>,
        query: request.query as OpsQueryOut<N>,
        params: request.params as OpsParamsOut<N>,
        request,
        reply,
      }),
  });
}

export interface OpsRoutesOptions {
  ctx: AppContext;
}

/** A concern's routes as a named plugin that declares the operator plugin it needs. */
export function opsRoutes(name: string, register: (app: FastifyInstance, ctx: AppContext) => void) {
  return fp<OpsRoutesOptions>(
    async (app, { ctx }) => {
      register(app, ctx);
    },
    { name: `e-wallet-ops-${name}`, fastify: '5.x', dependencies: [OPERATOR_PLUGIN] },
  );
}
