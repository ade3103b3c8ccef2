/** The manual identification queue: an application's photos and the decision on it. */
import { decideIdentification, identificationPhotos, identificationsPage } from '../identifications.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('identifications', (app, ctx) => {
  opsRoute(app, ctx, 'identifications', ({ op, query }) => identificationsPage(ctx, op.role, query));
  opsRoute(app, ctx, 'identificationPhotos', async ({ op, params }) => ({
    photos: await identificationPhotos(ctx, op, params.id),
  }));
  opsRoute(app, ctx, 'identificationApprove', ({ op, params }) =>
    decideIdentification(ctx, op, params.id, { action: 'approve' }),
  );
  opsRoute(app, ctx, 'identificationReject', ({ op, params, body }) =>
    decideIdentification(ctx, op, params.id, { action: 'reject', reason: body.reason }),
  );
});
