/**
 * The sandbox SMS outbox (docs/decisions/api.md#running-it-contracts-that-tests-rely-on): `GET
 * /sandbox/sms?phone=+79991234567` answers the texts a phone would have received, newest first. It exists
 * only with the sandbox provider and never when WALLET_ENV=production.
 */
import { ErrorBody, SmsOutbox, SmsOutboxQuery } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export default function sandboxSmsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const provider = ctx.sms;
  if (ctx.config.production || !provider.outbox) return;
  const outbox = provider.outbox.bind(provider);

  app.get(
    '/sandbox/sms',
    {
      schema: {
        operationId: 'sandboxSmsOutbox',
        summary: 'Sandbox only: the SMS texts sent to a phone, newest first',
        tags: ['sandbox'],
        querystring: SmsOutboxQuery,
        response: { 200: SmsOutbox, '4XX': ErrorBody },
      },
      // An unescaped '+' in a query string reads as a space; `?phone=+7999...` is how people type it.
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>;
        if (typeof query.phone === 'string' && query.phone.startsWith(' '))
          query.phone = `+${query.phone.slice(1)}`;
      },
    },
    async (request) => {
      const { phone } = request.query as { phone: string };
      const messages = await outbox(phone);
      return {
        results: messages.map((sms) => ({
          phone: sms.phone,
          text: sms.text,
          code: sms.code,
          created_at: sms.created_at.toISOString(),
        })),
      };
    },
  );
}
