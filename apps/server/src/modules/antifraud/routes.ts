/**
 * The trusted person's calls (docs/decisions/antifraud.md#antifraud-and-the-trusted-person):
 *   GET/PUT/DELETE /v2/wallet/trusted-person, POST /v2/wallet/trusted-person/accept | leave
 * Held operations and approvals are modules/holds'.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  acceptTrustedPerson,
  leaveTrustedRole,
  removeTrustedPerson,
  setTrustedPerson,
  trustedPersonOf,
} from './trusted.ts';

export default function antifraudRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'trustedPerson', ({ auth }) => trustedPersonOf(ctx, auth.userId));
  route(app, ctx, 'trustedPersonSet', ({ auth, body }) => setTrustedPerson(ctx, auth.userId, body));
  route(app, ctx, 'trustedPersonRemove', ({ auth }) => removeTrustedPerson(ctx, auth.userId));
  route(app, ctx, 'trustedPersonAccept', ({ auth, body }) => acceptTrustedPerson(ctx, auth.userId, body.id));
  route(app, ctx, 'trustedPersonLeave', ({ auth, body }) => leaveTrustedRole(ctx, auth.userId, body.id));
}
