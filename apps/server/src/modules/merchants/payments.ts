/**
 * A merchant's payments (docs/decisions/merchants.md#merchants): made by the merchant API (or by a payer at
 * the merchant's static QR), read by their merchant only (another merchant's id answers as a missing one),
 * cancelled while pending, paid by the payer's money call (pay.ts).
 *
 *   createPayment / paymentOf / paymentsPage / cancelPayment     /merchant/v1/payments
 *   paymentView(ctx, userId, id)                                 GET  /v2/wallet/merchant-payments/:id
 *   staticPayment(ctx, userId, body)                             POST /v2/wallet/merchant-payments
 */
import { randomUUID } from 'node:crypto';
import { type AnswerOf, type BodyOut, formatAmount, type QueryOut } from '@e-wallet/contract';
import { pathTo } from '@e-wallet/contract/routes';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { requestHash } from '../money-calls/index.ts';
import { dispatchNotification, recordNotification } from './notify.ts';
import { type MerchantRow, merchantById } from './profile.ts';

/** How long a payment may be paid unless the merchant says: a day; a static QR's: a quarter of an hour. */
const DEFAULT_TTL_S = 86_400;
const STATIC_TTL_S = 900;
/** The smallest payment: one rouble. */
const MIN_AMOUNT = 100n;
const PAGE = 20;

export interface PaymentRow {
  id: string;
  merchant_id: string;
  amount: bigint;
  currency: 'RUB';
  description: string;
  order_id: string | null;
  return_url: string | null;
  metadata: Record<string, string>;
  status: 'pending' | 'succeeded' | 'canceled';
  payer_id: string | null;
  static: boolean;
  refunded: bigint;
  request_hash: string | null;
  created_at: Date;
  expires_at: Date;
  paid_at: Date | null;
  payer_first: string | null;
  payer_last: string | null;
}

export const SELECT_PAYMENT = `SELECT p.id, p.merchant_id, p.amount, p.currency, p.description, p.order_id,
  p.return_url, p.metadata, p.status, p.payer_id, p.static, p.refunded, p.request_hash, p.created_at, p.expires_at,
  p.paid_at, u.first_name AS payer_first, u.last_name AS payer_last
  FROM merchant_payments p LEFT JOIN users u ON u.id = p.payer_id AND p.status = 'succeeded'`;

export type PaymentStatus = 'pending' | 'succeeded' | 'canceled' | 'expired';
export function statusAt(row: Pick<PaymentRow, 'status' | 'expires_at'>, now: Date): PaymentStatus {
  return row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;
}

/** Why a payment cannot be paid now (its row's own refusal), or null. */
export function unpayable(row: PaymentRow, now: Date): AppError | null {
  const status = statusAt(row, now);
  if (status === 'succeeded') return new AppError('MERCHANT_PAYMENT_PAID');
  if (status !== 'pending') return new AppError('MERCHANT_PAYMENT_CLOSED');
  return null;
}

function confirmationUrl(ctx: AppContext, id: string): string {
  return `${ctx.config.PUBLIC_URL}${pathTo('PayMerchant', { id })}`;
}

export function paymentAnswer(ctx: AppContext, row: PaymentRow): AnswerOf<'merchantPayment'> {
  const url = confirmationUrl(ctx, row.id);
  return {
    id: row.id,
    status: statusAt(row, ctx.clock.now()),
    amount: formatAmount(row.amount, 'RUB'),
    currency: 'RUB',
    description: row.description,
    order_id: row.order_id,
    metadata: row.metadata,
    confirmation_url: url,
    qr_payload: url,
    return_url: row.return_url,
    refunded_amount: formatAmount(BigInt(row.refunded), 'RUB'),
    payer: row.payer_first !== null ? maskedName(row.payer_first, row.payer_last ?? '') : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

function paymentAmount(text: string): bigint {
  const amount = amountOf(text, 'RUB');
  if (amount < MIN_AMOUNT)
    throw new AppError('MERCHANT_AMOUNT_TOO_SMALL', { min: { amount: '1.00', currency: 'RUB' } });
  return amount;
}

/** A merchant's own payment by id, locked for the caller's transaction when asked; else NOT_FOUND. */
export async function ownPayment(
  q: Queryable,
  merchantId: string,
  id: string,
  lock = false,
): Promise<PaymentRow> {
  const { rows } = await q.query<PaymentRow>(
    `${SELECT_PAYMENT} WHERE p.id = $1 AND p.merchant_id = $2${lock ? ' FOR UPDATE OF p' : ''}`,
    [id, merchantId],
  );
  if (!rows[0]) throw new AppError('MERCHANT_PAYMENT_NOT_FOUND');
  return rows[0];
}

/**
 * POST /merchant/v1/payments. Its Idempotency-Key is kept on the payment's row: a repeat answers the
 * payment made, another body under the key is IDEMPOTENCY_CONFLICT.
 */
export async function createPayment(
  ctx: AppContext,
  merchant: MerchantRow,
  body: BodyOut<'merchantPaymentCreate'>,
  key: string | null,
): Promise<AnswerOf<'merchantPaymentCreate'>> {
  const amount = paymentAmount(body.amount);
  const now = ctx.clock.now();
  const hash = requestHash(ctx, body);
  const id = randomUUID();
  const { rows } = await ctx.db.query<{ id: string }>(
    `INSERT INTO merchant_payments (id, merchant_id, amount, currency, description, order_id, return_url, metadata,
       status, idempotency_key, request_hash, created_at, expires_at)
     VALUES ($1, $2, $3, 'RUB', $4, $5, $6, $7::jsonb, 'pending', $8, $9, $10, $11)
     ON CONFLICT (merchant_id, idempotency_key) DO NOTHING RETURNING id`,
    [
      id,
      merchant.id,
      amount,
      body.description,
      body.order_id,
      body.return_url,
      JSON.stringify(body.metadata ?? {}),
      key,
      hash,
      now,
      new Date(now.getTime() + (body.expires_in ?? DEFAULT_TTL_S) * 1000),
    ],
  );
  if (rows[0]) return paymentAnswer(ctx, await ownPayment(ctx.db, merchant.id, id));
  const { rows: first } = await ctx.db.query<PaymentRow>(
    `${SELECT_PAYMENT} WHERE p.merchant_id = $1 AND p.idempotency_key = $2`,
    [merchant.id, key],
  );
  if (first[0]!.request_hash !== hash) throw new AppError('IDEMPOTENCY_CONFLICT');
  return paymentAnswer(ctx, first[0]!);
}

export async function paymentOf(
  ctx: AppContext,
  merchant: MerchantRow,
  id: string,
): Promise<AnswerOf<'merchantPayment'>> {
  return paymentAnswer(ctx, await ownPayment(ctx.db, merchant.id, id));
}

/**
 * A page of the merchant's payments, newest first. The cursor is read before the merchant is asked for
 * (`merchant` may be its lookup), so a forged one is FIELD_INVALID whoever asks.
 */
export async function paymentsPage(
  ctx: AppContext,
  merchant: MerchantRow | (() => Promise<MerchantRow>),
  query: QueryOut<'merchantPayments'>,
): Promise<AnswerOf<'merchantPayments'>> {
  const ids = opaqueIds(ctx.config);
  const after = query.cursor ? decodeCursor(query.cursor, ids) : null;
  const limit = Number(query.limit ?? PAGE);
  const { id } = typeof merchant === 'function' ? await merchant() : merchant;
  const { rows } = await ctx.db.query<PaymentRow>(
    `${SELECT_PAYMENT} WHERE p.merchant_id = $1
       AND ($2::timestamptz IS NULL OR (p.created_at, p.id) < ($2::timestamptz, $3::uuid))
     ORDER BY p.created_at DESC, p.id DESC LIMIT $4`,
    [id, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  const results = rows.slice(0, limit);
  const last = results.at(-1);
  return {
    results: results.map((row) => paymentAnswer(ctx, row)),
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, ids) : null,
  };
}

/** Cancels a pending payment; a cancelled one answers as it is (a repeat), a paid or expired one refuses. */
export async function cancelPayment(
  ctx: AppContext,
  merchant: MerchantRow,
  id: string,
): Promise<AnswerOf<'merchantPaymentCancel'>> {
  const now = ctx.clock.now();
  const done = await ctx.db.tx(async (q) => {
    const row = await ownPayment(q, merchant.id, id, true);
    if (row.status === 'canceled') return { answer: paymentAnswer(ctx, row), notification: null };
    const refusal = unpayable(row, now);
    if (refusal) throw refusal;
    await q.query(`UPDATE merchant_payments SET status = 'canceled', canceled_at = $2 WHERE id = $1`, [
      id,
      now,
    ]);
    const answer = paymentAnswer(ctx, { ...row, status: 'canceled' });
    return {
      answer,
      notification: await recordNotification(q, ctx, merchant.id, 'payment.canceled', answer),
    };
  });
  await dispatchNotification(ctx, done.notification);
  return done.answer;
}

/** A payment a payer may see: an active merchant's, made by its API or at its static QR by this payer. */
export async function payablePayment(
  q: Queryable,
  userId: string,
  id: string,
  lock = false,
): Promise<{ row: PaymentRow; merchant: MerchantRow }> {
  const { rows } = await q.query<PaymentRow>(
    `${SELECT_PAYMENT} WHERE p.id = $1${lock ? ' FOR UPDATE OF p' : ''}`,
    [id],
  );
  const row = rows[0];
  const merchant = row ? await merchantById(q, row.merchant_id) : null;
  if (!row || !merchant || merchant.status !== 'active' || (row.static && row.payer_id !== userId))
    throw new AppError('MERCHANT_PAYMENT_NOT_FOUND');
  return { row, merchant };
}

function viewOf(ctx: AppContext, row: PaymentRow, merchant: MerchantRow): AnswerOf<'merchantPaymentView'> {
  return {
    id: row.id,
    status: statusAt(row, ctx.clock.now()),
    amount: formatAmount(row.amount, 'RUB'),
    currency_code: 'RUB',
    description: row.description,
    merchant: { name: merchant.name, inn: merchant.inn, verified: true, site_url: merchant.site_url },
    fee: '0.00',
    return_url: row.return_url,
    expires_at: row.expires_at.toISOString(),
  };
}

export async function paymentView(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<AnswerOf<'merchantPaymentView'>> {
  const { row, merchant } = await payablePayment(ctx.db, userId, id);
  return viewOf(ctx, row, merchant);
}

/** A static QR's payment: the amount the payer typed, theirs alone to pay, for a quarter of an hour. */
export async function staticPayment(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'merchantStaticPayment'>,
): Promise<AnswerOf<'merchantStaticPayment'>> {
  const amount = paymentAmount(body.amount);
  const merchant = await merchantById(ctx.db, body.merchant);
  if (merchant?.status !== 'active') throw new AppError('MERCHANT_NOT_FOUND');
  if (merchant.user_id === userId) throw new AppError('MERCHANT_PAYMENT_OWN');
  const now = ctx.clock.now();
  const id = randomUUID();
  await ctx.db.query(
    `INSERT INTO merchant_payments (id, merchant_id, amount, currency, description, status, payer_id, static,
       created_at, expires_at) VALUES ($1, $2, $3, 'RUB', $4, 'pending', $5, true, $6, $7)`,
    [id, merchant.id, amount, body.comment ?? '', userId, now, new Date(now.getTime() + STATIC_TTL_S * 1000)],
  );
  return paymentView(ctx, userId, id);
}
