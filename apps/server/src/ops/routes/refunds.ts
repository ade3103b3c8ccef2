/** Refunds under four eyes: proposed by one operator, approved or rejected by another. */
import { approveRefund, proposeRefund, refundsPage, rejectRefund } from '../refunds.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('refunds', (app, ctx) => {
  opsRoute(app, ctx, 'refunds', ({ query }) => refundsPage(ctx, query));
  opsRoute(app, ctx, 'refundPropose', ({ op, body }) => proposeRefund(ctx, op, body));
  opsRoute(app, ctx, 'refundApprove', ({ op, params }) => approveRefund(ctx, op, params.id));
  opsRoute(app, ctx, 'refundReject', ({ op, params, body }) => rejectRefund(ctx, op, params.id, body.reason));
});
