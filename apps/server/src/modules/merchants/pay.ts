/**
 * Paying a merchant's payment (docs/decisions/merchants.md#merchants): a money call of the one pipeline,
 * the person's door `ledger_pay` with the merchant's account as the credit and the tariff's fee moved on to
 * 'fees' in the same statement. The payment's row is locked in the door's transaction and marked paid
 * there, so it is paid at most once however many pays race; an expired or cancelled one refuses.
 * A payment to a merchant is allowed at every identification level (no transfer to a person); the
 * monthly limit, freeze, terms, PIN or passkey apply as to any payment.
 */
import type { AnswerOf, Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, isAppError } from '../../errors.ts';
import { newTransferId } from '../../ledger/index.ts';
import { holdWaitsFor } from '../antifraud/index.ts';
import {
  type CheckAnswer,
  type Confirmation,
  checkAnswer,
  moneyCall,
  onRelease,
  paymentProblemsOf,
  requestHash,
} from '../money-calls/index.ts';
import { transferReceipt } from '../transfer/index.ts';
import { dispatchNotification, recordNotification } from './notify.ts';
import { type PaymentRow, payablePayment, paymentAnswer, SELECT_PAYMENT, unpayable } from './payments.ts';
import { feeOf, type MerchantRow } from './profile.ts';

const PAID: Record<Language, string> = { ru: 'Оплата выполнена', en: 'The payment is complete' };

/** How a merchant is named on the payer's receipt and history: its trading name and INN. */
export function merchantLabel(merchant: Pick<MerchantRow, 'name' | 'inn'>, language: Language): string {
  return language === 'ru'
    ? `${merchant.name}, ИНН ${merchant.inn}`
    : `${merchant.name}, INN ${merchant.inn}`;
}

export async function payMerchantPayment(
  ctx: AppContext,
  userId: string,
  id: string,
  confirmation: Confirmation,
  options: { idempotencyKey: string | null; language: Language; sessionId?: string },
): Promise<AnswerOf<'merchantPaymentPay'>> {
  const now = ctx.clock.now();
  const transferId = newTransferId();
  // The payee for the antifraud check, read before the call (the row is locked again in `before`).
  const seen = await payablePayment(ctx.db, userId, id);
  let row: PaymentRow;
  let merchant: MerchantRow;
  let notification: string | null = null;
  return moneyCall(ctx, {
    call: 'merchantPaymentPay',
    person: userId,
    confirmation,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, { id }),
    paysOnce: true,
    before: async (q) => {
      ({ row, merchant } = await payablePayment(q, userId, id, true));
      if (merchant.user_id === userId) throw new AppError('MERCHANT_PAYMENT_OWN');
      const refusal = unpayable(row, now);
      return refusal ? { refuse: refusal } : undefined;
    },
    prepare: () => {
      const fee = feeOf(ctx, row.amount);
      const shop = { ru: merchantLabel(merchant, 'ru'), en: merchantLabel(merchant, 'en') };
      const what = row.description ? `: ${row.description}` : '';
      const description = {
        debit: { ru: `Оплата: ${shop.ru}${what}`, en: `Payment to ${shop.en}${what}` },
        credit: { ru: `Оплата${what}`, en: `Payment${what}` },
      };
      return {
        answer: {
          status: 'success' as const,
          message: PAID[options.language],
          receipt: transferReceipt(
            {
              id: transferId,
              kind: 'payment',
              amount: row.amount,
              currency: 'RUB',
              createdAt: now,
              description,
            },
            shop[options.language],
            options.language,
          ),
        },
        door: {
          door: 'pay' as const,
          id: transferId,
          payer: userId,
          payee: null,
          currency: 'RUB' as const,
          amount: row.amount,
          kind: 'payment' as const,
          reference: { type: 'merchant_payment', id: row.id },
          description,
          at: now,
          rules: ctx.config.levelRulesJson,
          merchant: {
            account: merchant.account_id,
            fee,
            feeId: newTransferId(),
            feeDescription: {
              debit: { ru: 'Комиссия за приём платежа', en: 'Fee for the payment taken' },
              credit: { ru: `Комиссия: ${merchant.name}`, en: `Fee: ${merchant.name}` },
            },
          },
        },
      };
    },
    after: async (q, outcome) => {
      if (outcome.outcome !== 'created') return;
      notification = await markPaid(ctx, q, { id, payer: userId, transferId, at: now });
    },
    committed: () => dispatchNotification(ctx, notification),
    // A merchant is a payee of its own, judged as a person is; its settlement account is asked of the lists.
    antifraud: {
      payee: {
        userId: null,
        merchantId: seen.merchant.id,
        account: seen.merchant.bank_account,
        label: seen.merchant.name,
      },
      amount: seen.row.amount,
      currency: 'RUB',
      sessionId: options.sessionId ?? null,
      language: options.language,
    },
  });
}

/** The payment marked paid by this movement, and the merchant's notification recorded: its id to send. */
async function markPaid(
  ctx: AppContext,
  q: Queryable,
  paid: { id: string; payer: string; transferId: string; at: Date },
): Promise<string | null> {
  await q.query(
    `UPDATE merchant_payments SET status = 'succeeded', payer_id = $2, transfer_id = $3, paid_at = $4
     WHERE id = $1`,
    [paid.id, paid.payer, paid.transferId, paid.at],
  );
  const { rows } = await q.query<PaymentRow>(`${SELECT_PAYMENT} WHERE p.id = $1`, [paid.id]);
  const row = rows[0]!;
  return recordNotification(q, ctx, row.merchant_id, 'payment.succeeded', paymentAnswer(ctx, row));
}

// A held payment (docs/decisions/antifraud.md#antifraud-and-the-trusted-person) is paid to the merchant only
// when released: a payment paid, cancelled or expired meanwhile refuses the release, and the money stays
// held until the hold is cancelled or expires.
onRelease('merchantPaymentPay', {
  before: async (q, door) => {
    try {
      const { row } = await payablePayment(q, door.payer, door.reference!.id, true);
      return unpayable(row, door.at) ?? undefined;
    } catch (error) {
      if (isAppError(error)) return error;
      throw error;
    }
  },
  after: async (q, door, ctx) => {
    const notification = await markPaid(ctx, q, {
      id: door.reference!.id,
      payer: door.payer,
      transferId: door.id,
      at: door.at,
    });
    return () => dispatchNotification(ctx, notification);
  },
});

/**
 * Whether paying the payment can go through, before the PIN (as a request's pay check): the payment's own
 * state, then the payment door's rules for this payer, this merchant and amount, asked of the door itself.
 */
export async function checkMerchantPaymentPay(
  ctx: AppContext,
  userId: string,
  id: string,
  language: Language,
): Promise<CheckAnswer> {
  const { row, merchant } = await payablePayment(ctx.db, userId, id);
  if (merchant.user_id === userId)
    return checkAnswer(ctx, userId, [new AppError('MERCHANT_PAYMENT_OWN')], language);
  const refusal = unpayable(row, ctx.clock.now());
  if (refusal) return checkAnswer(ctx, userId, [refusal], language);
  if (await holdWaitsFor(ctx.db, userId, 'merchantPaymentPay', { type: 'merchant_payment', id: row.id }))
    return checkAnswer(ctx, userId, [new AppError('HOLD_WAITING')], language);
  const problems = await paymentProblemsOf(ctx, {
    payer: userId,
    payee: null,
    currency: 'RUB',
    amount: row.amount,
    kind: 'payment',
    merchant: { account: merchant.account_id, fee: feeOf(ctx, row.amount) },
  });
  return checkAnswer(ctx, userId, problems, language);
}
