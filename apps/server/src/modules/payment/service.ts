/**
 * Paying a scanned QR code (docs/decisions.md section 3), confirmed with the PIN, idempotent, recorded in the
 * ledger as kind 'payment' (so history and statistics show a payment):
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
import { requestHash } from '../idempotency/service.ts';
import { payOut, payoutReceiptOf } from '../payouts/service.ts';
import { payUser, transferReceipt } from '../transfer/service.ts';

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

export async function payQr(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'qrPayment'>,
  options: { idempotencyKey: string | null; language: Language },
): Promise<AnswerOf<'qrPayment'>> {
  const { language } = options;
  const parsed = parseQr(body.qr);
  const scope = {
    userId,
    call: 'qrPayment' as const,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, body),
  };

  switch (parsed.kind) {
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
      const amount = amountToPay(
        parsed.amount === null ? null : amountOf(parsed.amount, currency),
        body.amount,
        currency,
      );
      return payUser(
        ctx,
        { senderId: userId, phone: parsed.phone, pin: body.pin, amount, currency, kind: 'payment', scope },
        (moved, recipient) => ({
          status: 'success' as const,
          message: PAYMENT_DONE[language],
          receipt: transferReceipt(moved, recipient, language),
        }),
      );
    }

    case 'gost': {
      // GOST codes are rouble payments by definition (Sum is in kopecks).
      if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
      if (!ctx.payouts.supports('bank_account')) throw new AppError('QR_UNSUPPORTED');
      const amount = amountToPay(parsed.sum, body.amount, 'RUB');
      return payOut(
        ctx,
        {
          userId,
          pin: body.pin,
          purpose: 'payment',
          amount,
          currency: 'RUB',
          destination: {
            type: 'bank_account',
            account: parsed.personalAcc,
            bic: parsed.bic,
            correspondentAccount: parsed.correspAcc,
            bankName: parsed.bankName,
            payeeName: parsed.name,
            payeeInn: parsed.payeeInn,
            kpp: parsed.kpp,
            purpose: parsed.purpose,
          },
          shownDestination: parsed.personalAcc,
          payeeName: parsed.name,
          payeeDetails: {
            bic: parsed.bic,
            bank_name: parsed.bankName,
            correspondent_account: parsed.correspAcc,
            payee_inn: parsed.payeeInn,
            kpp: parsed.kpp,
            purpose: parsed.purpose,
          },
          providerDescription: parsed.purpose,
          scope,
        },
        (payout) => ({
          status: 'success' as const,
          message: PAYMENT_CREATED[language],
          receipt: payoutReceiptOf(payout, language),
        }),
      );
    }
  }
}
