/**
 * A merchant's refunds (docs/decisions/merchants.md#merchants): a money call of the one pipeline, made
 * with the merchant's key, whose door (ledger_merchant_refund) takes the money from the merchant's account
 * to the payer's at once, never above what is left of the payment.
 *
 *   refundPayment(ctx, merchant, body, key, language)   POST /merchant/v1/refunds
 *   refundOf(ctx, merchant, id)                         GET  /merchant/v1/refunds/:id
 *   latestRefunds(ctx, merchant)                        GET  /v2/wallet/merchant/refunds (the dashboard)
 */
import { randomUUID } from 'node:crypto';
import { type AnswerOf, type BodyOut, formatAmount } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { newTransferId } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { moneyCall, requestHash } from '../money-calls/index.ts';
import { dispatchNotification, recordNotification } from './notify.ts';
import { ownPayment } from './payments.ts';
import type { MerchantRow } from './profile.ts';

interface RefundRow {
  id: string;
  payment_id: string;
  amount: bigint;
  reason: string | null;
  created_at: Date;
}

function refundAnswer(row: RefundRow): AnswerOf<'merchantRefund'> {
  return {
    id: row.id,
    payment_id: row.payment_id,
    status: 'succeeded',
    amount: formatAmount(BigInt(row.amount), 'RUB'),
    currency: 'RUB',
    reason: row.reason,
    created_at: row.created_at.toISOString(),
  };
}

export async function refundPayment(
  ctx: AppContext,
  merchant: MerchantRow,
  body: BodyOut<'merchantRefundCreate'>,
  key: string | null,
): Promise<AnswerOf<'merchantRefundCreate'>> {
  const amount = amountOf(body.amount, 'RUB');
  const now = ctx.clock.now();
  const id = randomUUID();
  const transferId = newTransferId();
  let notification: string | null = null;
  const row: RefundRow = {
    id,
    payment_id: body.payment_id,
    amount,
    reason: body.reason ?? null,
    created_at: now,
  };
  return moneyCall(ctx, {
    call: 'merchantRefundCreate',
    person: merchant.id,
    confirmation: { merchantKey: true },
    key,
    requestHash: requestHash(ctx, body),
    // The payment's row first, as a payment's pay locks it (merchants.sql): another merchant's is not found.
    before: async (q: Queryable) => {
      await ownPayment(q, merchant.id, body.payment_id, true);
      return undefined;
    },
    prepare: () => {
      const what = { ru: `Возврат: ${merchant.name}`, en: `Refund from ${merchant.name}` };
      return {
        answer: refundAnswer(row),
        door: {
          door: 'merchantRefund' as const,
          id: transferId,
          merchant: merchant.id,
          paymentId: body.payment_id,
          amount,
          description: { debit: { ru: 'Возврат покупателю', en: 'Refund to the payer' }, credit: what },
          at: now,
        },
      };
    },
    after: async (q, outcome) => {
      if (outcome.outcome !== 'created') return;
      await q.query(
        `INSERT INTO merchant_refunds (id, merchant_id, payment_id, amount, reason, transfer_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, merchant.id, body.payment_id, amount, row.reason, transferId, now],
      );
      notification = await recordNotification(q, ctx, merchant.id, 'refund.succeeded', refundAnswer(row));
    },
    committed: () => dispatchNotification(ctx, notification),
  });
}

/** The latest refunds for the merchant's dashboard (GET /v2/wallet/merchant/refunds). */
export async function latestRefunds(
  ctx: AppContext,
  merchant: MerchantRow,
): Promise<AnswerOf<'merchantOwnRefunds'>> {
  const { rows } = await ctx.db.query<RefundRow>(
    `SELECT id, payment_id, amount, reason, created_at FROM merchant_refunds WHERE merchant_id = $1
     ORDER BY created_at DESC, id DESC LIMIT 50`,
    [merchant.id],
  );
  return { results: rows.map(refundAnswer) };
}

export async function refundOf(
  ctx: AppContext,
  merchant: MerchantRow,
  id: string,
): Promise<AnswerOf<'merchantRefund'>> {
  const { rows } = await ctx.db.query<RefundRow>(
    'SELECT id, payment_id, amount, reason, created_at FROM merchant_refunds WHERE id = $1 AND merchant_id = $2',
    [id, merchant.id],
  );
  if (!rows[0]) throw new AppError('MERCHANT_REFUND_NOT_FOUND');
  return refundAnswer(rows[0]);
}
