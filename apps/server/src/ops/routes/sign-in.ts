/** The operator's own calls: signing in and out, who they are, and finishing a one-time setup link. */
import { opsRoute, opsRoutes } from '../route.ts';
import { signIn, signOut } from '../sessions.ts';
import { finishSetup, startSetup } from '../setup-links.ts';

export default opsRoutes('sign-in', (app, ctx) => {
  opsRoute(app, ctx, 'login', ({ body, request }) => signIn(ctx, body, request.ip));
  opsRoute(app, ctx, 'logout', async ({ op }) => {
    await signOut(ctx, op);
    return { status: 'success' };
  });
  opsRoute(app, ctx, 'me', async ({ op }) => ({ id: op.id, email: op.email, role: op.role }));
  opsRoute(app, ctx, 'setupStart', ({ body }) => startSetup(ctx, body.token));
  opsRoute(app, ctx, 'setupFinish', ({ body, request }) => finishSetup(ctx, body, request.ip));
});
