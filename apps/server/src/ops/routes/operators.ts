/** Operators as administrators manage them, and the audit of every operator's actions. */
import { auditPage } from '../audit.ts';
import {
  changeRole,
  confirmRole,
  disableOperator,
  inviteOperator,
  listOperators,
  resetTotp,
  unlockOperator,
} from '../operators.ts';
import { opsRoute, opsRoutes } from '../route.ts';

export default opsRoutes('operators', (app, ctx) => {
  opsRoute(app, ctx, 'audit', ({ query }) => auditPage(ctx, query));
  opsRoute(app, ctx, 'operators', ({ query }) => listOperators(ctx, query));
  opsRoute(app, ctx, 'operatorCreate', ({ op, body }) => inviteOperator(ctx, op, body));
  opsRoute(app, ctx, 'operatorUnlock', async ({ op, params }) => {
    await unlockOperator(ctx, op, params.id);
    return { status: 'success' };
  });
  opsRoute(app, ctx, 'operatorDisable', ({ op, params, body }) =>
    disableOperator(ctx, op, params.id, body.reason),
  );
  opsRoute(app, ctx, 'operatorRole', ({ op, params, body }) => changeRole(ctx, op, params.id, body.role));
  opsRoute(app, ctx, 'operatorRoleConfirm', ({ op, params }) => confirmRole(ctx, op, params.id));
  opsRoute(app, ctx, 'operatorTotpReset', ({ op, params }) => resetTotp(ctx, op, params.id));
});
