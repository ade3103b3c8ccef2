/**
 * The signed-in operator of a back office call, as a plugin the routes declare they need (as
 * fastify/demo's plugins/app do): `request.operator`, set by the call's check before its body is read.
 */
import fp from 'fastify-plugin';
import type { SignedOperator } from '../sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of a signed-in back office call; null on the public ones (the sign-in, a setup link). */
    operator: SignedOperator | null;
  }
}

export const OPERATOR_PLUGIN = 'e-wallet-ops-operator';

export default fp(
  async (app) => {
    app.decorateRequest('operator', null);
  },
  { name: OPERATOR_PLUGIN, fastify: '5.x' },
);
