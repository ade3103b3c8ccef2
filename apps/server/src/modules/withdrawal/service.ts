/**
 * Withdrawal to a bank card (wallet-spec.md 'Withdrawal', decisions.md sections 6 and 7):
 * RUB only; the amount checked; the card Luhn-checked (digits only after removing spaces, 16 digits);
 * the PIN checked on the server; the level's permission and monthly limit; the amount held; the payout
 * started with the provider. The card is stored only masked (first 6, last 4); the full number goes to
 * the provider in memory and is never stored or logged.
 */
import {
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  exponentOf,
  type Language,
  parseAmount,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { maskCard, normalizeCardNumber } from '../../providers/payouts/payouts-provider.ts';
import { checkPin } from '../auth/pin.ts';
import { requestHash, withIdempotency } from '../idempotency/service.ts';
import { assertMaySpend } from '../identification/enforce.ts';
import { openPayout, type PayoutRow, payoutDescription, payoutReceiptOf, submitPayout } from './payouts.ts';

export const WITHDRAWAL_CREATED: Record<Language, string> = {
  ru: 'Заявка на вывод средств успешно создана!',
  en: 'Your withdrawal request has been created!',
};

/** A money amount from the wire, or the AppError naming what is wrong with it. */
export function amountOf(text: string, currency: CurrencyCode): bigint {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok)
    throw new AppError(
      parsed.error,
      parsed.error === 'AMOUNT_TOO_PRECISE' ? { digits: exponentOf(currency) } : {},
    );
  return parsed.minor;
}

export async function withdraw(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'withdrawal'>,
  options: { idempotencyKey: string | null; language: Language },
): Promise<AnswerOf<'withdrawal'>> {
  if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
  const amount = amountOf(body.amount, 'RUB');
  const card = normalizeCardNumber(body.pan);
  if (!card) throw new AppError('CARD_INVALID');
  await checkPin(ctx, userId, body.pin);

  const masked = maskCard(card);
  let opened: PayoutRow | null = null;
  const answer = await withIdempotency(
    ctx,
    { userId, call: 'withdrawal', key: options.idempotencyKey, requestHash: requestHash(ctx, body) },
    async (q) => {
      await assertMaySpend(q, ctx, userId, 'withdrawal', amount, 'RUB');
      const payout = await openPayout(q, ctx, {
        userId,
        purpose: 'withdrawal',
        amount,
        currency: 'RUB',
        destinationType: 'bank_card',
        destination: masked,
        payeeName: null,
        payeeDetails: null,
        description: payoutDescription({ purpose: 'withdrawal', destination: masked, payee_name: null }),
      });
      opened = payout;
      return {
        status: 'success' as const,
        message: WITHDRAWAL_CREATED[options.language],
        receipt: payoutReceiptOf(payout, options.language),
      };
    },
  );
  // Only the request that held the money starts the payout; a repeat answers the first receipt.
  const payout = opened as PayoutRow | null;
  if (payout) {
    await submitPayout(ctx, payout, { type: 'bank_card', number: card }, payoutDescription(payout).ru);
  }
  return answer;
}
