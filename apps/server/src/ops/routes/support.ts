/** Support conversations: the list, one conversation, a reply, closing it, and the live stream of them. */
import { languageFrom } from '@e-wallet/contract';
import { opsRoute, opsRoutes } from '../route.ts';
import {
  closeSupportConversation,
  closeSupportEvents,
  conversationMessages,
  conversationsPage,
  replyToConversation,
  supportEvents,
} from '../support.ts';

export default opsRoutes('support', (app, ctx) => {
  opsRoute(app, ctx, 'supportConversations', ({ query }) => conversationsPage(ctx, query));
  opsRoute(app, ctx, 'supportConversation', ({ params, query, request }) =>
    conversationMessages(ctx, params.id, query, languageFrom(request.headers['accept-language'])),
  );
  opsRoute(app, ctx, 'supportReply', ({ op, params, body }) =>
    replyToConversation(ctx, op, params.id, body.text),
  );
  opsRoute(app, ctx, 'supportClose', ({ op, params }) => closeSupportConversation(ctx, op, params.id));
  opsRoute(app, ctx, 'supportEvents', async ({ reply }) => {
    await supportEvents(ctx, reply);
    return undefined;
  });
  // Operators' open support streams end with the server, so closing never waits on them.
  app.addHook('preClose', async () => closeSupportEvents(ctx));
});
