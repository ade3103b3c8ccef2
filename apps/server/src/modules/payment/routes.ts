/**
 * QR payments:
 *   POST /v2/wallet/payment/qr         pay a scanned code (own receive QR or GOST R 56042-2014), PIN, Idempotency-Key
 *   POST /v2/wallet/payment/qr/check   whether it can go through, before the PIN
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { checkQrPayment, payQr } from './service.ts';

export default function paymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'qrPayment', ({ auth, body, idempotencyKey, language }) =>
    payQr(ctx, auth.userId, body, { idempotencyKey, language, sessionId: auth.sessionId }),
  );
  route(app, ctx, 'qrPaymentCheck', ({ auth, body, language }) =>
    checkQrPayment(ctx, auth.userId, body, language),
  );
}
