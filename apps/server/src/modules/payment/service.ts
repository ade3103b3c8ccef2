/**
 * Paying a scanned QR code (docs/decisions/qr-codes.md#qr-codes-we-read), confirmed with the PIN, idempotent,
 * recorded in the ledger as kind 'payment' (so history and statistics show a payment):
 *   - our own receive QR: money to that wallet user (a transfer between people: the level must allow
 *     transfers, the recipient's balance cap applies); the amount from the code, or from the request
 *   - GOST R 56042-2014: money to a bank account, held, then paid out through the payouts provider
 *     (Sum from the code in kopecks, or the request's amount when the code has none); payments to
 *     merchants are allowed at every level, the monthly limit applies
 *   - SBP links: QR_SBP_UNAVAILABLE (paying them needs an SBP member bank); anything else QR_UNSUPPORTED;
 *     a recognised but broken code QR_INVALID {reason}. No money moves in any of these.
 */
import {
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  isCurrencyCode,
  type Language,
  MAX_MINOR,
  parseQr,
  type QrInvalidReason,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { checkAnswer, paymentProblemsOf, requestHash } from '../money-calls/index.ts';
import { payOut, payoutReceiptOf } from '../payouts/index.ts';
import { checkPaymentToPerson, payUser, transferReceipt } from '../transfer/index.ts';

export const PAYMENT_DONE: Record<Language, string> = {
  ru: 'Оплата выполнена',
  en: 'The payment is complete',
};
export const PAYMENT_CREATED: Record<Language, string> = {
  ru: 'Платёж принят и будет зачислен получателю',
  en: 'The payment is accepted and will reach the payee',
};

const REASONS: Record<QrInvalidReason, Record<Language, string>> = {
  missing_field: { ru: 'не хватает поля {field}', en: 'the field {field} is missing' },
  bad_account: { ru: 'неверный номер счёта', en: 'wrong account number' },
  bad_bic: { ru: 'неверный БИК', en: 'wrong BIC' },
  bad_checksum: { ru: 'не сходится контрольный ключ счёта', en: 'the account check digit does not match' },
  bad_sum: { ru: 'неверная сумма', en: 'wrong amount' },
  bad_phone: { ru: 'неверный номер телефона получателя', en: 'wrong payee phone number' },
  bad_encoding: { ru: 'неизвестная кодировка', en: 'unknown encoding' },
  bad_header: { ru: 'неверный формат', en: 'wrong format' },
};

function invalidQr(reason: QrInvalidReason, field: string | undefined, language: Language): AppError {
  return new AppError('QR_INVALID', { reason: REASONS[reason][language].replace('{field}', field ?? '') });
}

/** The amount to pay: the code's own, or the request's when the code has none; both must agree. */
function amountToPay(fromCode: bigint | null, requested: string | undefined, currency: CurrencyCode): bigint {
  const asked = requested === undefined ? null : amountOf(requested, currency);
  if (fromCode !== null) {
    if (fromCode > MAX_MINOR) throw new AppError('AMOUNT_TOO_LARGE');
    if (asked !== null && asked !== fromCode) throw new AppError('FIELD_INVALID', { field: 'amount' });
    return fromCode;
  }
  if (asked === null) throw new AppError('FIELD_REQUIRED', { field: 'amount' });
  return asked;
}

/** What a scanned code asks to pay, read once for the payment and for its check. */
type QrIntent =
  | { to: 'person'; phone: string; amount: bigint; currency: CurrencyCode }
  | { to: 'bank'; code: GostCode; amount: bigint };
type GostCode = Extract<ReturnType<typeof parseQr>, { kind: 'gost' }>;

function readQr(
  ctx: AppContext,
  body: { qr: string; amount?: string; currency_code: CurrencyCode },
  language: Language,
): QrIntent {
  const parsed = parseQr(body.qr);
  switch (parsed.kind) {
    // A merchant's code is paid on its own page (/pay/m, /pay/shop), never as a QR payment.
    case 'merchant':
    case 'unsupported':
      throw new AppError('QR_UNSUPPORTED');
    case 'sbp':
      throw new AppError('QR_SBP_UNAVAILABLE');
    case 'invalid':
      throw invalidQr(parsed.reason, parsed.field, language);
    case 'wallet': {
      const currency = parsed.currency;
      if (!isCurrencyCode(currency) || currency !== body.currency_code)
        throw new AppError('FIELD_INVALID', { field: 'currency_code' });
      const fromCode = parsed.amount === null ? null : amountOf(parsed.amount, currency);
      return {
        to: 'person',
        phone: parsed.phone,
        amount: amountToPay(fromCode, body.amount, currency),
        currency,
      };
    }
    case 'gost':
      // GOST codes are rouble payments by definition (Sum is in kopecks).
      if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
      if (!ctx.payouts.supports('bank_account')) throw new AppError('QR_UNSUPPORTED');
      return { to: 'bank', code: parsed, amount: amountToPay(parsed.sum, body.amount, 'RUB') };
  }
}

export async function payQr(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'qrPayment'>,
  options: { idempotencyKey: string | null; language: Language; sessionId?: string },
): Promise<AnswerOf<'qrPayment'>> {
  const { language } = options;
  const intent = readQr(ctx, body, language);
  const scope = {
    userId,
    call: 'qrPayment' as const,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, body),
  };
  if (intent.to === 'person') {
    const { phone, amount, currency } = intent;
    return payUser(
      ctx,
      {
        senderId: userId,
        phone,
        confirmation: body,
        amount,
        currency,
        kind: 'payment',
        scope,
        language,
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      },
      (moved, counterparty, language) => ({
        status: 'success' as const,
        message: PAYMENT_DONE[language],
        receipt: transferReceipt(moved, counterparty, language),
      }),
    );
  }
  const { code, amount } = intent;
  return payOut(
    ctx,
    {
      userId,
      confirmation: body,
      purpose: 'payment',
      amount,
      currency: 'RUB',
      destination: {
        type: 'bank_account',
        account: code.personalAcc,
        bic: code.bic,
        correspondentAccount: code.correspAcc,
        bankName: code.bankName,
        payeeName: code.name,
        payeeInn: code.payeeInn,
        kpp: code.kpp,
        purpose: code.purpose,
      },
      shownDestination: code.personalAcc,
      payeeName: code.name,
      payeeDetails: {
        bic: code.bic,
        bank_name: code.bankName,
        correspondent_account: code.correspAcc,
        payee_inn: code.payeeInn,
        kpp: code.kpp,
        purpose: code.purpose,
        // Read by the category's rule (db/functions/categories.sql), when the code carries one.
        mcc: code.extra.MCC ?? null,
      },
      providerDescription: code.purpose,
      scope,
      sessionId: options.sessionId ?? null,
      language,
    },
    (payout) => ({
      status: 'success' as const,
      message: PAYMENT_CREATED[language],
      receipt: payoutReceiptOf(payout, language),
    }),
  );
}

/** POST /v2/wallet/payment/qr/check: the same reading of the code, and the rules asked before the PIN. */
export async function checkQrPayment(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'qrPaymentCheck'>,
  language: Language,
): Promise<AnswerOf<'qrPaymentCheck'>> {
  const intent = readQr(ctx, body, language);
  if (intent.to === 'person')
    return checkPaymentToPerson(ctx, userId, { ...intent, kind: 'payment' }, language);
  return checkAnswer(
    ctx,
    userId,
    await paymentProblemsOf(ctx, {
      payer: userId,
      payee: null,
      currency: 'RUB',
      amount: intent.amount,
      kind: 'payment',
    }),
    language,
  );
}
