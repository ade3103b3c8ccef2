/**
 * GET /v2/wallet/terms (no token) and POST /v2/wallet/terms/accept
 * (docs/decisions/account.md#a-persons-account).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { acceptTerms, termsAnswer } from './service.ts';

const ACCEPTED = { ru: 'Условия приняты', en: 'The terms are accepted' } as const;

export default function termsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'terms', async (call) => termsAnswer(ctx.config, call.language));
  route(app, ctx, 'acceptTerms', async (call) => {
    await acceptTerms(ctx, call.auth.userId, call.body.terms_version);
    return { status: 'success', message: ACCEPTED[call.language] };
  });
}
