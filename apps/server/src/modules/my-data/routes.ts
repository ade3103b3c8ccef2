/**
 * GET /v2/wallet/me/export[?format=pdf]: everything kept about the signed-in person
 * (docs/decisions/account.md#a-persons-account).
 */
import type { AnswerOf } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { personalDataPdf } from './pdf.ts';
import { countExport, personalData } from './service.ts';

export default function myDataRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'meExport', async ({ auth, query, language, ip, reply }) => {
    await countExport(ctx, auth.userId, ip);
    const data = await personalData(ctx, auth.userId, language);
    const day = data.generated_at.slice(0, 10);
    if (query.format === 'pdf') {
      const pdf = await personalDataPdf(data, ctx.config.BRAND, language);
      reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="e-wallet-my-data-${day}.pdf"`)
        .send(pdf);
      // The reply is sent: what the handler answers is never serialized.
      return reply as unknown as AnswerOf<'meExport'>;
    }
    reply.header('Content-Disposition', `attachment; filename="e-wallet-my-data-${day}.json"`);
    return data;
  });
}
