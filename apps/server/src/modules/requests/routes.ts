/**
 * Payment requests
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers):
 *   POST /v2/wallet/request                    ask for money (by phone, by link, split)
 *   GET  /v2/wallet/request?direction=         incoming or outgoing requests
 *   GET  /v2/wallet/request/link/:token        the request behind a link
 *   POST /v2/wallet/request/:id/pay            pay it (PIN, Idempotency-Key), at most once
 *   POST /v2/wallet/request/:id/pay/check      what would refuse the pay, before the PIN
 *   POST /v2/wallet/request/:id/decline        by the person asked
 *   POST /v2/wallet/request/:id/cancel         by the requester
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import {
  checkRequestPay,
  closeRequest,
  createRequest,
  listRequests,
  payRequest,
  requestByLink,
} from './service.ts';

export default function requestRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'requestCreate', ({ auth, body, language }) =>
    createRequest(ctx, auth.userId, body, language),
  );
  route(app, ctx, 'requestList', ({ auth, query }) => listRequests(ctx, auth.userId, query));
  route(app, ctx, 'requestLink', ({ auth, params }) => requestByLink(ctx, auth.userId, params.token));
  route(app, ctx, 'requestPay', ({ auth, params, body, idempotencyKey, language }) =>
    payRequest(ctx, auth.userId, params.id, body, { idempotencyKey, language, sessionId: auth.sessionId }),
  );
  route(app, ctx, 'requestPayCheck', ({ auth, params, language }) =>
    checkRequestPay(ctx, auth.userId, params.id, language),
  );
  route(app, ctx, 'requestDecline', ({ auth, params, language }) =>
    closeRequest(ctx, auth.userId, params.id, 'declined', language),
  );
  route(app, ctx, 'requestCancel', ({ auth, params, language }) =>
    closeRequest(ctx, auth.userId, params.id, 'cancelled', language),
  );
}
