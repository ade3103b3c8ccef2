/**
 * The sandbox payments provider's hosted page
 * (docs/decisions/api.md#running-it-contracts-that-tests-rely-on), only outside production:
 *   GET  /sandbox/pay/:id   the payment: merchant, amount, a card number field (for СБП a QR), pay or cancel
 *   GET  /sandbox/pay/:id/qr.svg   the СБП page's QR: this page's address, as a bank app would open it
 *   POST /sandbox/pay/:id   form-encoded `card` and `action=pay|decline`: records the outcome by test card
 *                           (cards.ts), notifies the wallet by signed webhook and answers 303 to the order's
 *                           return url (/wallet/payments/finish?order=<id>); an invalid card answers the
 *                           form again (400) with the error
 * The webhook goes through this server's own HTTP stack (in-process), so it passes the same signature
 * check as any callback. Nothing of the card is kept but its last four digits.
 */
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../context.ts';
import { cardDigits, sandboxCardOutcome } from '../../providers/payments/cards.ts';
import type { HostedPayment } from '../../providers/payments/payments-provider.ts';
import { inProcessTransport } from '../../providers/sandbox-webhooks.ts';
import { sendHtml } from '../sandbox-pages/index.ts';
import { ACTION_ERROR, CARD_ERROR, decidedPage, formPage, notFoundPage, sbpPage } from './page.ts';

function field(body: unknown, name: string, max = 100): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** The order's return url, relative when it points at this server (the browser stays on its origin). */
function returnPath(ctx: AppContext, payment: HostedPayment): string {
  const origin = new URL(ctx.config.PUBLIC_URL).origin;
  try {
    const url = new URL(payment.return_url);
    if (url.origin === origin) return `${url.pathname}${url.search}`;
    return url.toString();
  } catch {
    return '/';
  }
}

export default function sandboxPayRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.production) return;
  const provider = ctx.payments.hostedPage;
  if (!provider) return;

  provider.setTransport(inProcessTransport(app, 'payments'));

  app.get<{ Params: { id: string } }>(
    '/sandbox/pay/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const payment = await provider.payment(request.params.id);
      if (!payment) return sendHtml(reply, 404, notFoundPage());
      if (payment.status !== 'pending')
        return sendHtml(reply, 200, decidedPage(payment, returnPath(ctx, payment)));
      return sendHtml(reply, 200, payment.method === 'sbp' ? sbpPage(payment) : formPage(payment));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/sandbox/pay/:id/qr.svg',
    { schema: { hide: true } },
    async (request, reply) => {
      const payment = await provider.payment(request.params.id);
      if (payment?.method !== 'sbp') return sendHtml(reply, 404, notFoundPage());
      const svg = await QRCode.toString(`${ctx.config.PUBLIC_URL}/sandbox/pay/${payment.id}`, {
        type: 'svg',
        margin: 1,
      });
      return reply.type('image/svg+xml').send(svg);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/sandbox/pay/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const payment = await provider.payment(request.params.id);
      if (!payment) return sendHtml(reply, 404, notFoundPage());
      // A repeated submit of a decided payment (a second click, the back button) changes nothing.
      if (payment.status !== 'pending') return reply.redirect(returnPath(ctx, payment), 303);
      const action = field(request.body, 'action');
      if (action === 'decline') {
        await provider.decide(payment.id, { action: 'decline', cardLast4: null, reason: 'canceled_by_user' });
        return reply.redirect(returnPath(ctx, payment), 303);
      }
      const page = payment.method === 'sbp' ? sbpPage : formPage;
      if (action !== 'pay') return sendHtml(reply, 400, page(payment, ACTION_ERROR));
      // СБП: the payer's bank app has confirmed; no card is asked.
      if (payment.method === 'sbp') {
        await provider.decide(payment.id, { action: 'pay', cardLast4: null });
        return reply.redirect(returnPath(ctx, payment), 303);
      }
      const digits = cardDigits(field(request.body, 'card', 40));
      if (!digits) return sendHtml(reply, 400, formPage(payment, CARD_ERROR));
      const cardLast4 = digits.slice(-4);
      await provider.decide(
        payment.id,
        sandboxCardOutcome(digits) === 'declined'
          ? { action: 'decline', cardLast4, reason: 'card_declined' }
          : { action: 'pay', cardLast4 },
      );
      return reply.redirect(returnPath(ctx, payment), 303);
    },
  );
}
