/**
 * Identification calls: upgrade to the next level, refresh the status, and the KYC provider's
 * signed callback.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { nextLevel } from '../../policy/levels.ts';
import { registerSignedRoutes } from '../../providers/signature.ts';
import {
  addDocumentPhoto,
  handleKycWebhook,
  identificationStatus,
  startUpgrade,
  submitDocuments,
} from './service.ts';

export default async function identificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, ctx, 'upgradeIdentification', async ({ auth }) => {
    const { verificationUrl, verification } = await startUpgrade(ctx, auth.userId);
    return { status: 'success', verification_url: verificationUrl, active_identification: verification };
  });

  route(app, ctx, 'identificationStatus', async ({ auth }) => {
    const { level, verification } = await identificationStatus(ctx, auth.userId);
    return {
      status: 'success',
      identification_level: { name: level, ask_for_next: nextLevel(level) !== null },
      active_identification: verification,
    };
  });

  route(app, ctx, 'submitIdentificationDocuments', async ({ auth, body, language }) => {
    const { level, verification } = await submitDocuments(ctx, auth.userId, body, language);
    return {
      status: 'success',
      identification_level: { name: level, ask_for_next: nextLevel(level) !== null },
      active_identification: verification,
    };
  });

  route(app, ctx, 'uploadIdentificationPhoto', ({ auth, body, language }) =>
    addDocumentPhoto(ctx, auth.userId, body, language),
  );

  await registerSignedRoutes(app, ctx, 'KYC_PROVIDER', (scope) => {
    route(scope, ctx, 'kycWebhook', async ({ body }) => {
      await handleKycWebhook(ctx, body);
      return { status: 'success' };
    });
  });
}
