/** Stuck payouts, settled or released by an operator; and the day's reconciliation. */
import { decidePayout, payoutsPage } from '../payouts.ts';
import { reconciliation } from '../reconciliation.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('payouts', (app, ctx) => {
  opsRoute(app, ctx, 'payouts', ({ query }) => payoutsPage(ctx, query));
  opsRoute(app, ctx, 'payoutSettle', ({ op, params, body }) =>
    decidePayout(ctx, op, params.id, 'settle', body.reason),
  );
  opsRoute(app, ctx, 'payoutRelease', ({ op, params, body }) =>
    decidePayout(ctx, op, params.id, 'release', body.reason),
  );
  opsRoute(app, ctx, 'reconciliation', ({ query }) => reconciliation(ctx, query.date));
});
