/**
 * Top-up: money in through the payments provider's hosted page.
 *
 *   startTopUp        POST /v2/wallet/top-up: checks, a pending order, then the provider's payment
 *   applyPaymentReport what the provider verifiably reports (signed webhook, verified notification,
 *                     or a status fetch) applied to the order: the only place an order changes
 *   topUpStatus       GET /v2/wallet/top-up/status: the user's own order, reconciled while pending
 *
 * Rules
 * - RUB only; the amount as parseAmount reads it; the level must allow top-ups and the balance after it
 *   stays within the level's cap. Pending orders reserve their room for `limits_reservation()` (limits.sql), so
 *   several open orders cannot together pass the cap (checked under the user's row lock).
 * - A succeeded payment credits the user's RUB account exactly once: one ledger transfer from the
 *   RUB topup_clearing account, kind 'topup', idempotency key `topup:<order id>`, written in the same
 *   transaction as the order's change to 'complete' under the order's row lock. Repeated, late and
 *   concurrent callbacks find the order complete (or the ledger key used) and move nothing.
 * - Paid money is never refused: the cap is enforced when the order is made, not when the provider
 *   reports that the card was charged (refusing then would leave the person's money nowhere).
 * - Out of order: 'canceled' only fails a pending order; a 'succeeded' after a failure still
 *   completes and credits it (the provider says the card was charged, so the money is the person's);
 *   nothing leaves 'complete', a later 'canceled' is ignored. So the outcome never loses or doubles money.
 * - Crash safety: an order whose callback never came is reconciled by fetching the payment from the
 *   provider when its status is asked while pending; an order the provider never created a payment for
 *   fails after the same `limits_reservation()`.
 */
import { randomUUID } from 'node:crypto';
import {
  type CurrencyCode,
  exponentOf,
  formatAmount,
  ID_PATTERN,
  type Language,
  parseAmount,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { openAccount, systemAccount, topUpRefusal, transfer, userAccount } from '../../ledger/index.ts';
import type { PaymentReport } from '../../providers/payments/payments-provider.ts';
import { keyedCall, refusalError, requestHash } from '../money-calls/index.ts';
import { requireAcceptedTerms } from '../terms/index.ts';

export const ORDER_REFERENCE = 'topup_order';
export const FINISH_PATH = '/wallet/payments/finish';
const PAYMENT_DESCRIPTION = 'Пополнение кошелька E-Wallet';
const CREDIT_TEXT = {
  card: { ru: 'Пополнение с банковской карты', en: 'Top-up from a bank card' },
  sbp: { ru: 'Пополнение через СБП', en: 'Top-up by SBP' },
};
const CREATED_TEXT = {
  ru: 'Заказ создан. Перейдите на страницу оплаты',
  en: 'The order is created. Continue to the payment page',
};

export type OrderStatus = 'pending' | 'complete' | 'failed';

export interface TopUpOrder {
  id: string;
  user_id: string;
  amount: bigint;
  currency: CurrencyCode;
  status: OrderStatus;
  method: 'card' | 'sbp';
  provider: string;
  provider_payment_id: string | null;
  payment_url: string | null;
  transfer_id: string | null;
  failure_reason: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface TopUpAnswer {
  status: 'success';
  message: string;
  url: string;
  order: string;
}

export interface TopUpStatusAnswer {
  status: OrderStatus;
  order: string;
  amount: string;
  currency_code: CurrencyCode;
}

const COLUMNS = `id, user_id, amount, currency, status, method, provider, provider_payment_id, payment_url, transfer_id,
  failure_reason, created_at, finished_at`;

/** The ledger idempotency key of an order's credit. */
export function creditKey(orderId: string): string {
  return `topup:${orderId}`;
}

async function orderById(q: Queryable, id: string, lock = false): Promise<TopUpOrder | null> {
  if (!ID_PATTERN.test(id)) return null;
  const { rows } = await q.query<TopUpOrder>(
    `SELECT ${COLUMNS} FROM topup_orders WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** The user's own order; another user's is as absent as a missing one (ORDER_NOT_FOUND). */
export async function ownOrder(q: Queryable, userId: string, id: string): Promise<TopUpOrder> {
  const order = await orderById(q, id);
  if (!order || order.user_id !== userId) throw new AppError('ORDER_NOT_FOUND');
  return order;
}

/** The amount of a top-up request in minor units, or the error naming what is wrong with it. */
export function topUpAmount(amount: string, currency: CurrencyCode): bigint {
  if (currency !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) {
    throw new AppError(
      parsed.error,
      parsed.error === 'AMOUNT_TOO_PRECISE' ? { digits: exponentOf(currency) } : {},
    );
  }
  return parsed.minor;
}

function answerOf(order: TopUpOrder, language: Language): TopUpAnswer {
  return {
    status: 'success',
    message: CREATED_TEXT[language],
    url: order.payment_url ?? '',
    order: order.id,
  };
}

/**
 * Starts a top-up: a pending order (with the Idempotency-Key, a repeat finds the same order), then the
 * provider's payment for it outside any transaction (the provider is asked with the order id as its
 * idempotence key, so a repeat or a retry after a failure finds the same payment, never a second one).
 */
export async function startTopUp(
  ctx: AppContext,
  input: {
    userId: string;
    body: { amount: string; currency_code: CurrencyCode; method?: 'card' | 'sbp' | undefined };
    idempotencyKey: string | null;
    language: Language;
  },
): Promise<TopUpAnswer> {
  const currency = input.body.currency_code;
  const amount = topUpAmount(input.body.amount, currency);
  const method = input.body.method ?? 'card';
  // Money waits for the current terms, as every money call does (modules/money-calls).
  await requireAcceptedTerms(ctx, input.userId);
  // The order's id is made first: it is the call's answer, stored with the key before the order is.
  const id = randomUUID();
  const { order: orderId } = await keyedCall(
    ctx,
    {
      userId: input.userId,
      call: 'topUp',
      key: input.idempotencyKey,
      // A card top-up's fingerprint is as before СБП came (keys stored then still match).
      requestHash: requestHash(ctx, method === 'sbp' ? { amount, currency, method } : { amount, currency }),
    },
    { order: id },
    async (q) => {
      const now = ctx.clock.now();
      // Under the user's row lock, which it takes: open orders count against the cap too.
      const refusal = await topUpRefusal(q, ctx.config.levelRulesJson, input.userId, currency, amount, now);
      if (refusal) throw refusalError(refusal);
      await q.query(
        `INSERT INTO topup_orders (id, user_id, amount, currency, method, provider, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        [id, input.userId, amount, currency, method, ctx.payments.id, now],
      );
    },
  );
  const order = await ensurePayment(ctx, orderId);
  return answerOf(order, input.language);
}

/** The order with its provider payment, created now if it has none yet. */
async function ensurePayment(ctx: AppContext, orderId: string): Promise<TopUpOrder> {
  const order = await orderById(ctx.db, orderId);
  if (!order) throw new Error(`top-up order ${orderId} vanished`);
  if (order.payment_url) return order;
  // A finished order is only asked again for a payment the provider already has (creating is idempotent
  // by order id, so that answers the same payment): a failed order never gets a new one.
  if ((order.status !== 'pending' && !order.provider_payment_id) || order.provider !== ctx.payments.id)
    throw new AppError('PROVIDER_UNAVAILABLE', {}, `order ${order.id} has no payment and cannot get one`);
  let created: Awaited<ReturnType<AppContext['payments']['create']>>;
  try {
    created = await ctx.payments.create({
      orderId: order.id,
      amount: BigInt(order.amount),
      currency: order.currency,
      description: PAYMENT_DESCRIPTION,
      returnUrl: `${ctx.config.PUBLIC_URL}${FINISH_PATH}?order=${order.id}`,
      method: order.method,
    });
  } catch (error) {
    // The order stays pending without a payment: a repeat with the same key tries again.
    throw new AppError('PROVIDER_UNAVAILABLE', {}, `payments provider: ${(error as Error).message}`);
  }
  const { rows } = await ctx.db.query<TopUpOrder>(
    `UPDATE topup_orders SET provider_payment_id = coalesce(provider_payment_id, $2),
            payment_url = coalesce(payment_url, $3), updated_at = $4
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [order.id, created.paymentId, created.url, ctx.clock.now()],
  );
  return rows[0]!;
}

/**
 * Applies what the provider verifiably reports about an order's payment, in one transaction under the
 * order's row lock; answers the order as it is afterwards. A report that does not match the order
 * (another payment, another amount) changes nothing and is refused.
 */
export async function applyPaymentReport(ctx: AppContext, report: PaymentReport): Promise<TopUpOrder> {
  if (!report.orderId)
    throw new AppError('ORDER_NOT_FOUND', {}, `payment ${report.paymentId} names no order`);
  const orderId = report.orderId;
  return ctx.db.tx(async (q) => {
    const order = await orderById(q, orderId, true);
    if (!order) throw new AppError('ORDER_NOT_FOUND', {}, `payment ${report.paymentId}: unknown order`);
    if (order.provider_payment_id && order.provider_payment_id !== report.paymentId)
      throw new AppError('VALIDATION_ERROR', {}, `payment ${report.paymentId} is not the order's payment`);
    if (BigInt(order.amount) !== report.amount || order.currency !== report.currency)
      throw new AppError(
        'VALIDATION_ERROR',
        {},
        `payment ${report.paymentId}: amount differs from the order`,
      );
    const now = ctx.clock.now();
    switch (report.status) {
      case 'pending':
        return order;
      case 'canceled': {
        if (order.status !== 'pending') return order;
        const { rows } = await q.query<TopUpOrder>(
          `UPDATE topup_orders SET status = 'failed', failure_reason = 'canceled',
                  provider_payment_id = coalesce(provider_payment_id, $2), updated_at = $3, finished_at = $3
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [order.id, report.paymentId, now],
        );
        return rows[0]!;
      }
      case 'succeeded': {
        if (order.status === 'complete') return order;
        const account =
          (await userAccount(q, order.user_id, order.currency)) ??
          (await openAccount(q, order.user_id, order.currency, now));
        const clearing = await systemAccount(q, order.currency, 'topup_clearing');
        const credit = await transfer(q, {
          debit: clearing.id,
          credit: account.id,
          amount: BigInt(order.amount),
          currency: order.currency,
          kind: 'topup',
          idempotencyKey: creditKey(order.id),
          reference: { type: ORDER_REFERENCE, id: order.id },
          description: CREDIT_TEXT[order.method],
          at: now,
        });
        const { rows } = await q.query<TopUpOrder>(
          `UPDATE topup_orders SET status = 'complete', transfer_id = $2, failure_reason = NULL,
                  provider_payment_id = coalesce(provider_payment_id, $3), updated_at = $4, finished_at = $4
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [order.id, credit.transfer.id, report.paymentId, now],
        );
        return rows[0]!;
      }
    }
  });
}

/**
 * The user's order. While it is pending its payment is fetched from the provider and the answer applied,
 * so an order whose callback was lost still completes (or fails) when the app polls it.
 */
export async function topUpStatus(
  ctx: AppContext,
  userId: string,
  orderId: string,
  log?: { warn(obj: object, msg: string): void },
): Promise<TopUpStatusAnswer> {
  let order = await ownOrder(ctx.db, userId, orderId);
  if (order.status === 'pending') {
    if (order.provider_payment_id && order.provider === ctx.payments.id) {
      try {
        const report = await ctx.payments.fetch(order.provider_payment_id);
        if (report.orderId !== null && report.orderId !== order.id)
          throw new Error(`payment ${report.paymentId} names another order`);
        if (report.status !== 'pending')
          order = await applyPaymentReport(ctx, { ...report, orderId: order.id });
      } catch (error) {
        // The provider is away or disagrees: the order stays pending and is asked again on the next poll.
        log?.warn({ order: order.id, error: (error as Error).message }, 'top-up reconciliation failed');
      }
    } else if (!order.provider_payment_id) {
      const now = ctx.clock.now();
      const { rows } = await ctx.db.query<TopUpOrder>(
        `UPDATE topup_orders SET status = 'failed', failure_reason = 'payment_not_created', updated_at = $2,
                finished_at = $2
         WHERE id = $1 AND status = 'pending' AND provider_payment_id IS NULL
           AND created_at <= $2::timestamptz - limits_reservation()
         RETURNING ${COLUMNS}`,
        [order.id, now],
      );
      order = rows[0] ?? order;
    }
  }
  return {
    status: order.status,
    order: order.id,
    amount: formatAmount(BigInt(order.amount), order.currency),
    currency_code: order.currency,
  };
}
