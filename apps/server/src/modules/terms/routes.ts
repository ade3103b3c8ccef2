/**
 * GET /v2/wallet/terms (no token) and POST /v2/wallet/terms/accept
 * (docs/decisions/account.md#a-persons-account).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { acceptTerms, TERMS_VERSION, termsAnswer } from './service.ts';
import { TARIFFS_PATH, tariffsPage } from './tariffs.ts';

const ACCEPTED = { ru: 'Условия приняты', en: 'The terms are accepted' } as const;

export default function termsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'terms', async (call) => termsAnswer(ctx.config, call.language));
  route(app, ctx, 'acceptTerms', async (call) => {
    await acceptTerms(ctx, call.auth.userId, call.body.terms_version);
    return { status: 'success', message: ACCEPTED[call.language] };
  });
  // The tariffs page of the current version, with the fees in force (a page, outside the contract's calls).
  app.get<{ Params: { version: string; language: string } }>(
    TARIFFS_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      const { version, language } = request.params;
      if (version !== TERMS_VERSION || (language !== 'ru' && language !== 'en'))
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return (
        reply
          .header('Cache-Control', 'no-cache')
          // An API path's policy forbids everything; this page needs the legal documents' stylesheet.
          .header(
            'Content-Security-Policy',
            "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          )
          .type('text/html; charset=utf-8')
          .send(tariffsPage(ctx.config, version, language))
      );
    },
  );
}
