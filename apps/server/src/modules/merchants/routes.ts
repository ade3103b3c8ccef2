/**
 * Merchants' routes (docs/decisions/merchants.md#merchants):
 *   /v2/wallet/merchant, /v2/wallet/merchant/keys         the person's merchant account and its keys
 *   /v2/wallet/merchant/settlements                       its balance paid out to its bank account
 *   /merchant/v1/payments                                 the merchant API (HTTP Basic: keys.ts)
 *   /v2/wallet/merchant-payments                          the payer's side (view, check before the PIN, pay)
 */
import type { CallName } from '@e-wallet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type CallRequest, route } from '../../http/route.ts';
import { authenticateMerchant, createKey, listKeys, merchantOf, revokeKey } from './keys.ts';
import { defineNotifyJobs, notificationLog, resendNotification, rotateSecret } from './notify.ts';
import { checkMerchantPaymentPay, payMerchantPayment } from './pay.ts';
import {
  cancelPayment,
  createPayment,
  paymentOf,
  paymentsPage,
  paymentView,
  staticPayment,
} from './payments.ts';
import { applyMerchant, type MerchantRow, merchantOfUser, ownMerchant, updateMerchant } from './profile.ts';
import { latestRefunds, refundOf, refundPayment } from './refunds.ts';
import { defineSettlementJobs, settlementsOf, settleNow } from './settlements.ts';

export default function merchantRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineNotifyJobs(ctx);
  defineSettlementJobs(ctx);
  route(app, ctx, 'merchantApply', ({ auth, body, language }) =>
    applyMerchant(ctx, auth.userId, body, language),
  );
  route(app, ctx, 'merchantOwn', ({ auth }) => ownMerchant(ctx, auth.userId));
  route(app, ctx, 'merchantUpdate', ({ auth, body, language }) =>
    updateMerchant(ctx, auth.userId, body, language),
  );
  route(app, ctx, 'merchantOwnPayments', ({ auth, query }) =>
    paymentsPage(
      ctx,
      async () => {
        const merchant = await merchantOfUser(ctx.db, auth.userId);
        if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
        return merchant;
      },
      query,
    ),
  );
  route(app, ctx, 'merchantOwnRefunds', async ({ auth }) => {
    const merchant = await merchantOfUser(ctx.db, auth.userId);
    if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
    return latestRefunds(ctx, merchant);
  });
  route(app, ctx, 'merchantSettle', ({ auth, body, idempotencyKey, language }) =>
    settleNow(ctx, auth.userId, body, { idempotencyKey, language }),
  );
  route(app, ctx, 'merchantSettlements', ({ auth }) => settlementsOf(ctx, auth.userId));
  route(app, ctx, 'merchantWebhookSecret', ({ auth }) => rotateSecret(ctx, auth.userId));
  route(app, ctx, 'merchantNotifications', ({ auth }) => notificationLog(ctx, auth.userId));
  route(app, ctx, 'merchantNotificationResend', ({ auth, params }) =>
    resendNotification(ctx, auth.userId, params.id),
  );
  route(app, ctx, 'merchantKeyCreate', ({ auth, body }) => createKey(ctx, auth.userId, body.name));
  route(app, ctx, 'merchantKeys', ({ auth }) => listKeys(ctx, auth.userId));
  route(app, ctx, 'merchantKeyRevoke', ({ auth, params }) => revokeKey(ctx, auth.userId, params.id));

  // The merchant API: its key is checked before the request is validated.
  const merchantCall = <N extends CallName>(
    name: N,
    handler: (merchant: MerchantRow, call: CallRequest<N>) => ReturnType<Parameters<typeof route<N>>[3]>,
  ) =>
    route(app, ctx, name, (call) => handler(merchantOf(call.request), call), {
      authenticate: (request) => authenticateMerchant(ctx, request),
    });
  merchantCall('merchantPaymentCreate', (merchant, { body, idempotencyKey }) =>
    createPayment(ctx, merchant, body, idempotencyKey),
  );
  merchantCall('merchantPayment', (merchant, { params }) => paymentOf(ctx, merchant, params.id));
  merchantCall('merchantPayments', (merchant, { query }) => paymentsPage(ctx, merchant, query));
  merchantCall('merchantPaymentCancel', (merchant, { params }) => cancelPayment(ctx, merchant, params.id));
  merchantCall('merchantRefundCreate', (merchant, { body, idempotencyKey }) =>
    refundPayment(ctx, merchant, body, idempotencyKey),
  );
  merchantCall('merchantRefund', (merchant, { params }) => refundOf(ctx, merchant, params.id));

  route(app, ctx, 'merchantPaymentView', ({ auth, params }) => paymentView(ctx, auth.userId, params.id));
  route(app, ctx, 'merchantPaymentPayCheck', ({ auth, params, language }) =>
    checkMerchantPaymentPay(ctx, auth.userId, params.id, language),
  );
  route(app, ctx, 'merchantStaticPayment', ({ auth, body }) => staticPayment(ctx, auth.userId, body));
  route(app, ctx, 'merchantPaymentPay', ({ auth, params, body, idempotencyKey, language }) =>
    payMerchantPayment(ctx, auth.userId, params.id, body, {
      idempotencyKey,
      language,
      sessionId: auth.sessionId,
    }),
  );
}
