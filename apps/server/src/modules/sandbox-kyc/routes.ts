/**
 * The sandbox KYC provider's hosted page (decisions.md section 5), only outside production:
 *   GET  /sandbox/kyc/:id   the form: document type (passport, INN, SNILS), number, full name, birth date
 *   POST /sandbox/kyc/:id   form-encoded, action=approve|reject with the fields (and an optional reason);
 *                           answers 303 to /settings once decided, or the form again (400) with the errors
 *   GET  /sandbox/assets/sandbox.css   the sandbox pages' stylesheet
 * After a decision the provider sends its signed webhooks to POST /v2/wallet/webhooks/kyc through this
 * server's own HTTP stack (in-process), so they pass the same signature check as any callback.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { checkApplicant } from '../../providers/kyc/documents.ts';
import { kycProvider } from '../../providers/kyc/index.ts';
import { SandboxKycProvider } from '../../providers/kyc/sandbox.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { decidedPage, formPage, notFoundPage } from './page.ts';

const CSS_PATH = '/sandbox/assets/sandbox.css';
const CSS = readFileSync(new URL('./sandbox.css', import.meta.url), 'utf8');
/** Where the browser goes back to after a decision: the app's settings (identification section). */
export const RETURN_PATH = '/settings';

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
}

function field(body: Record<string, unknown>, name: string, max = 300): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

export default function sandboxKycRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.production) return;
  const provider = kycProvider(ctx);
  if (!(provider instanceof SandboxKycProvider)) return;

  // Callbacks go through this server's own route (signature check included), without the network.
  provider.setTransport(inProcessTransport(app, 'KYC'));

  if (!app.hasRoute({ method: 'GET', url: CSS_PATH })) {
    app.get(CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CSS),
    );
  }

  app.get<{ Params: { id: string } }>(
    '/sandbox/kyc/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const application = await provider.application(request.params.id);
      if (!application) return html(reply, 404, notFoundPage());
      if (application.status !== 'pending') return html(reply, 200, decidedPage(application));
      return html(reply, 200, formPage(application));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/sandbox/kyc/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const application = await provider.application(request.params.id);
      if (!application) return html(reply, 404, notFoundPage());
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
        return html(
          reply,
          400,
          formPage(application, values, [], 'Выберите действие: подтвердить или отклонить'),
        );
      }
      const checked = checkApplicant(values, ctx.clock.now());
      if (!checked.ok) return html(reply, 400, formPage(application, values, checked.fields));
      await provider.decide(application.id, { action: 'approve', applicant: checked.applicant });
      return reply.redirect(RETURN_PATH, 303);
    },
  );
}
