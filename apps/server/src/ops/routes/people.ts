/** People: the list, a person's card, an operator's freeze and its lifting, a closed 'Это не я' report. */
import { closeReport, setFrozen, userCard, usersPage } from '../people.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('people', (app, ctx) => {
  opsRoute(app, ctx, 'users', ({ query }) => usersPage(ctx, query));
  opsRoute(app, ctx, 'user', ({ params }) => userCard(ctx.db, ctx, params.id));
  opsRoute(app, ctx, 'freeze', ({ op, params, body }) =>
    setFrozen(ctx, op, params.id, 'freeze', body.reason),
  );
  opsRoute(app, ctx, 'unfreeze', ({ op, params, body }) =>
    setFrozen(ctx, op, params.id, 'unfreeze', body.reason),
  );
  opsRoute(app, ctx, 'reportClose', ({ op, params, body }) => closeReport(ctx, op, params.id, body.reason));
});
