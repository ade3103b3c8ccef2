/**
 * The sandbox KYC provider's hosted page (docs/decisions/api.md#running-it-contracts-that-tests-rely-on),
 * only outside production:
 *   GET  /sandbox/kyc/:id   the form: document type (passport, INN, SNILS), number, full name, birth date
 *   POST /sandbox/kyc/:id   form-encoded, action=approve|reject with the fields (and an optional reason);
 *                           answers 303 to /settings once decided, or the form again (400) with the errors
 * After a decision the provider sends its signed webhooks to POST /v2/wallet/webhooks/kyc through this
 * server's own HTTP stack (in-process), so they pass the same signature check as any callback.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { checkApplicant } from '../../providers/kyc/documents.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { sendHtml } from '../sandbox-pages/index.ts';
import { decidedPage, formPage, notFoundPage } from './page.ts';

/** Where the browser goes back to after a decision: the app's settings (identification section). */
export const RETURN_PATH = '/settings';

function field(body: Record<string, unknown>, name: string, max = 300): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

export default function sandboxKycRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.production) return;
  const provider = ctx.kyc.hostedPage;
  if (!provider) return;

  // Callbacks go through this server's own route (signature check included), without the network.
  provider.setTransport(inProcessTransport(app, 'KYC'));

  app.get<{ Params: { id: string } }>(
    '/sandbox/kyc/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const application = await provider.application(request.params.id);
      if (!application) return sendHtml(reply, 404, notFoundPage());
      if (application.status !== 'pending') return sendHtml(reply, 200, decidedPage(application));
      return sendHtml(reply, 200, formPage(application));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/sandbox/kyc/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const application = await provider.application(request.params.id);
      if (!application) return sendHtml(reply, 404, notFoundPage());
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      const values = {
        document_type: field(body, 'document_type'),
        document_number: field(body, 'document_number'),
        full_name: field(body, 'full_name'),
        birth_date: field(body, 'birth_date'),
        reason: field(body, 'reason', 200),
      };
      // A repeated submit of a decided application (a second click, the back button) changes nothing.
      if (application.status !== 'pending') return reply.redirect(RETURN_PATH, 303);
      const action = field(body, 'action');
      if (action === 'reject') {
        await provider.decide(application.id, { action: 'reject', reason: values.reason?.trim() || null });
        return reply.redirect(RETURN_PATH, 303);
      }
      if (action !== 'approve') {
        return sendHtml(
          reply,
          400,
          formPage(application, values, [], 'Выберите действие: подтвердить или отклонить'),
        );
      }
      const checked = checkApplicant(values, ctx.clock.now());
      if (!checked.ok) return sendHtml(reply, 400, formPage(application, values, checked.fields));
      await provider.decide(application.id, { action: 'approve', applicant: checked.applicant });
      return reply.redirect(RETURN_PATH, 303);
    },
  );
}
