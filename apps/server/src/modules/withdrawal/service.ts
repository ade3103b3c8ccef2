/**
 * Withdrawal to a bank card (docs/decisions/identification-and-limits.md#identification-levels and
 * docs/decisions/security-rules.md#security-baselines): RUB only; the amount checked; the card Luhn-checked
 * (16 digits once spaces are removed); then a payout, confirmed with the PIN, under the level's permission
 * and monthly limit. The card is kept only masked (first 6, last 4); the full number goes to the provider in
 * memory and is never stored or logged.
 */
import type { AnswerOf, BodyOut, Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskCard, normalizeCardNumber } from '../../providers/payouts/payouts-provider.ts';
import type { HoldVerdict } from '../antifraud/index.ts';
import { type CheckAnswer, checkAnswer, paymentProblemsOf, requestHash } from '../money-calls/index.ts';
import { payOut, payoutReceiptOf } from '../payouts/index.ts';

export const WITHDRAWAL_CREATED: Record<Language, string> = {
  ru: 'Заявка на вывод средств успешно создана!',
  en: 'Your withdrawal request has been created!',
};

export async function withdraw(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'withdrawal'>,
  options: {
    idempotencyKey: string | null;
    language: Language;
    sessionId?: string;
    /** Closing the wallet: refused with `cannotWait`'s error where a withdrawal would be held. */
    closing?: { cannotWait: (verdict: HoldVerdict) => AppError };
  },
): Promise<AnswerOf<'withdrawal'>> {
  if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
  const amount = amountOf(body.amount, 'RUB');
  const card = normalizeCardNumber(body.pan);
  if (!card) throw new AppError('CARD_INVALID');
  return payOut(
    ctx,
    {
      userId,
      confirmation: body,
      purpose: 'withdrawal',
      amount,
      currency: 'RUB',
      destination: { type: 'bank_card', number: card },
      shownDestination: maskCard(card),
      payeeName: null,
      payeeDetails: null,
      scope: { userId, call: 'withdrawal', key: options.idempotencyKey, requestHash: requestHash(ctx, body) },
      sessionId: options.sessionId ?? null,
      language: options.language,
      ...(options.closing ? { beforeTerms: true as const, cannotWait: options.closing.cannotWait } : {}),
    },
    (payout) => ({
      status: 'success' as const,
      message: WITHDRAWAL_CREATED[options.language],
      receipt: payoutReceiptOf(payout, options.language),
    }),
  );
}

/** POST /v2/wallet/withdrawal/check: the same rules before the PIN; the card is checked once typed. */
export async function checkWithdrawal(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'withdrawalCheck'>,
  language: Language,
): Promise<CheckAnswer> {
  if (body.currency_code !== 'RUB') throw new AppError('CURRENCY_NOT_ALLOWED');
  const amount = amountOf(body.amount, 'RUB');
  const problems = await paymentProblemsOf(ctx, {
    payer: userId,
    payee: null,
    currency: 'RUB',
    amount,
    kind: 'withdrawal',
  });
  if (body.pan !== undefined && body.pan.trim() !== '' && !normalizeCardNumber(body.pan))
    problems.push(new AppError('CARD_INVALID'));
  return checkAnswer(ctx, userId, problems, language);
}
