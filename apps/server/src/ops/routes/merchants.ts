/** The merchants' queue: applications and an operator's decision on one. */
import { decideMerchant, merchantsPage } from '../merchants.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('merchants', (app, ctx) => {
  opsRoute(app, ctx, 'merchants', ({ query }) => merchantsPage(ctx, query));
  opsRoute(app, ctx, 'merchantApprove', ({ op, params }) =>
    decideMerchant(ctx, op, params.id, { action: 'approve' }),
  );
  opsRoute(app, ctx, 'merchantReject', ({ op, params, body }) =>
    decideMerchant(ctx, op, params.id, { action: 'reject', reason: body.reason }),
  );
});
