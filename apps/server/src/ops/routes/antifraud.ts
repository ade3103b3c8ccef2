/**
 * Antifraud (docs/decisions/antifraud.md, 'Antifraud and the trusted person'): held operations, and the local fraud
 * list under four eyes.
 */
import {
  confirmFraudEntry,
  fraudListPage,
  holdsPage,
  proposeFraudEntry,
  refuseHeld,
  releaseHold,
  removeFraudEntry,
} from '../antifraud.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('antifraud', (app, ctx) => {
  opsRoute(app, ctx, 'holds', ({ query }) => holdsPage(ctx, query));
  opsRoute(app, ctx, 'holdRelease', ({ op, params, body }) => releaseHold(ctx, op, params.id, body.reason));
  opsRoute(app, ctx, 'holdRefuse', ({ op, params, body }) => refuseHeld(ctx, op, params.id, body.reason));
  opsRoute(app, ctx, 'fraudList', ({ query }) => fraudListPage(ctx, query));
  opsRoute(app, ctx, 'fraudListPropose', ({ op, body }) => proposeFraudEntry(ctx, op, body));
  opsRoute(app, ctx, 'fraudListConfirm', ({ op, params }) => confirmFraudEntry(ctx, op, params.id));
  opsRoute(app, ctx, 'fraudListRemove', ({ op, params, body }) =>
    removeFraudEntry(ctx, op, params.id, body.reason),
  );
});
