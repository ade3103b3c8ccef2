/**
 * Held operations and approvals (docs/decisions/antifraud.md#antifraud-and-the-trusted-person):
 *   GET /v2/wallet/holds, POST /v2/wallet/holds/:id/code | confirm | cancel
 *   GET /v2/wallet/approvals, POST /v2/wallet/approvals/:id/approve | decline
 * The sweep is a queue of the one job system (jobs.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { defineHoldJobs } from './jobs.ts';
import {
  approveHold,
  cancelHold,
  confirmHold,
  declineHold,
  listApprovals,
  listHolds,
  sendHoldCode,
} from './service.ts';

export default function holdRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'holds', ({ auth, language }) => listHolds(ctx, auth.userId, language));
  route(app, ctx, 'holdConfirm', ({ auth, params, body, language }) =>
    confirmHold(ctx, auth, params.id, body, language),
  );
  route(app, ctx, 'holdCode', ({ auth, params, language, ip, userAgent }) =>
    sendHoldCode(ctx, auth.userId, params.id, { ip, userAgent, language }),
  );
  route(app, ctx, 'holdCancel', ({ auth, params, language }) =>
    cancelHold(ctx, auth.userId, params.id, language),
  );
  route(app, ctx, 'approvals', ({ auth, language }) => listApprovals(ctx, auth.userId, language));
  route(app, ctx, 'approvalApprove', ({ auth, params, body, language }) =>
    approveHold(ctx, auth.userId, params.id, body, language),
  );
  route(app, ctx, 'approvalDecline', ({ auth, params, language }) =>
    declineHold(ctx, auth.userId, params.id, language),
  );

  defineHoldJobs(ctx);
}
