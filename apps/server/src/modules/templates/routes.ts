/**
 * Saved payees, recent recipients and 'Повторить'
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers):
 *   GET/POST /v2/wallet/template, DELETE /v2/wallet/template/:id
 *   GET /v2/wallet/transfer/recent
 *   GET /v2/wallet/transaction/:id/repeat
 */
import type { Language } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { createTemplate, deleteTemplate, listTemplates, recentRecipients, repeatOf } from './service.ts';

const DELETED: Record<Language, string> = { ru: 'Шаблон удалён', en: 'The template is deleted' };

export default function templateRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'templateList', ({ auth }) => listTemplates(ctx, auth.userId));
  route(app, ctx, 'templateCreate', ({ auth, body }) => createTemplate(ctx, auth.userId, body));
  route(app, ctx, 'templateDelete', async ({ auth, params, language }) => {
    await deleteTemplate(ctx, auth.userId, params.id);
    return { status: 'success', message: DELETED[language] };
  });
  route(app, ctx, 'recentRecipients', ({ auth }) => recentRecipients(ctx, auth.userId));
  route(app, ctx, 'transactionRepeat', ({ auth, params }) => repeatOf(ctx, auth.userId, params.id));
}
