/**
 * Top-up calls: POST /v2/wallet/top-up, GET /v2/wallet/top-up/status, and the payments provider's
 * callbacks:
 *   POST /v2/wallet/webhooks/payments           signed (X-Signature HMAC, providers/signature.ts): the
 *        sandbox's payment.succeeded / payment.canceled; a bad signature changes nothing (401).
 *   POST /v2/wallet/webhooks/payments/yookassa  YooKassa's notifications (only with PAYMENTS_PROVIDER=
 *        yookassa). They carry no signature, so the payment is fetched from YooKassa and only its answer
 *        is applied; a notification for a payment YooKassa does not have is refused (401).
 */
import { parseAmount } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import { registerUnsignedNotifications } from '../../providers/notifications.ts';
import { registerSignedRoutes } from '../../providers/signature.ts';
import { applyPaymentReport, startTopUp, topUpStatus } from './service.ts';

export default async function topUpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, ctx, 'topUp', (call) =>
    startTopUp(ctx, {
      userId: call.auth.userId,
      body: call.body,
      idempotencyKey: call.idempotencyKey,
      language: call.language,
    }),
  );
  route(app, ctx, 'topUpStatus', (call) =>
    topUpStatus(ctx, call.auth.userId, call.query.order, call.request.log),
  );

  await registerSignedRoutes(app, ctx, 'PAYMENTS_PROVIDER', (scope) =>
    route(scope, ctx, 'paymentsWebhook', async (call) => {
      const { body } = call;
      const amount = parseAmount(body.amount, body.currency_code);
      if (!amount.ok) throw new AppError('VALIDATION_ERROR', {}, 'payments webhook: unreadable amount');
      await applyPaymentReport(ctx, {
        paymentId: body.payment_id,
        orderId: body.order,
        status: body.event === 'payment.succeeded' ? 'succeeded' : 'canceled',
        amount: amount.minor,
        currency: body.currency_code,
      });
      return { status: 'success' };
    }),
  );

  registerUnsignedNotifications(app, ctx.payments.unsignedNotifications, async (report) => {
    await applyPaymentReport(ctx, report);
  });
}
