/**
 * Sending roubles by phone to an account in any bank through the Faster Payments System (СБП,
 * docs/decisions/sbp.md): a payout of the one payouts path (modules/payouts: the money held by the pipeline's
 * door as a withdrawal, the provider asked once, the hold settled or returned), to a participant bank.
 *
 *   sbpTransfer(ctx, userId, body, options)   POST /v2/wallet/sbp/transfer
 *   checkSbp(ctx, userId, body, language)     POST /v2/wallet/sbp/check: the same owners asked before the PIN,
 *                                             with the bank and the recipient's masked name
 * What only СБП decides (a Russian phone, 1 ₽ to 500,000 ₽, a participant bank, 'to myself') is `sbpPayee`,
 * asked by both; everything else (level, limits, freeze, terms, antifraud, PIN) is the door's and the pipeline's.
 */
import {
  type AnswerOf,
  type BodyOut,
  formatAmount,
  type Language,
  SBP_MAX_MINOR,
  SBP_MIN_MINOR,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { hintsPerDatabase } from '../../db/hints.ts';
import { AppError } from '../../errors.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import {
  maskPhone,
  PayoutUnavailable,
  type SbpBank,
  type SbpRecipient,
} from '../../providers/payouts/payouts-provider.ts';
import { checkAnswer, paymentProblemsOf, requestHash } from '../money-calls/index.ts';
import { payOut, payoutReceiptOf } from '../payouts/index.ts';
import { countLookup } from '../transfer/index.ts';
import { sbpBank } from './banks.ts';
import { sbpFee } from './fees.ts';

export const SBP_SENT: Record<Language, string> = {
  ru: 'Перевод по СБП отправлен',
  en: 'Your Faster Payments transfer has been sent',
};

type SbpRequest = BodyOut<'sbpCheck'>;

interface SbpPayee {
  amount: bigint;
  bank: SbpBank | null;
  /** For 'to myself': the person's verified name, for the bank's recipient check. */
  recipient: SbpRecipient | null;
  ownName: string | null;
  problems: AppError[];
}

/**
 * Where an СБП transfer can go: a Russian phone at a participant bank, as problems. Asked by the transfer,
 * its check and a saved СБП payee (modules/templates).
 */
export async function sbpDestination(
  ctx: AppContext,
  phone: string,
  bankId: string,
): Promise<{ bank: SbpBank | null; problems: AppError[] }> {
  const problems: AppError[] = [];
  if (!/^\+7\d{10}$/.test(phone)) problems.push(new AppError('SBP_PHONE_NOT_RUSSIAN'));
  const bank = await sbpBank(ctx, bankId);
  if (!bank) problems.push(new AppError('SBP_BANK_UNKNOWN'));
  return { bank, problems };
}

/** СБП's own rules for a request, as problems (the check lists them; the transfer refuses the first). */
async function sbpPayee(ctx: AppContext, userId: string, body: SbpRequest): Promise<SbpPayee> {
  const amount = amountOf(body.amount, 'RUB');
  const { bank, problems } = await sbpDestination(ctx, body.phone, body.bank_id);
  if (amount < SBP_MIN_MINOR || amount > SBP_MAX_MINOR)
    problems.push(
      new AppError('SBP_AMOUNT_RANGE', {
        min: { amount: formatAmount(SBP_MIN_MINOR, 'RUB'), currency: 'RUB' },
        max: { amount: formatAmount(SBP_MAX_MINOR, 'RUB'), currency: 'RUB' },
      }),
    );
  let recipient: SbpRecipient | null = null;
  let ownName: string | null = null;
  if (body.own) {
    const { rows } = await ctx.db.query<{
      phone: string;
      first_name: string;
      last_name: string;
      identification_level: string;
    }>('SELECT phone, first_name, last_name, identification_level FROM users WHERE id = $1', [userId]);
    const user = rows[0]!;
    if (user.phone !== body.phone) problems.push(new AppError('SBP_OWN_PHONE'));
    // Only the full level's name was checked against a document: the bank compares that one.
    if (user.identification_level !== 'full') problems.push(new AppError('SBP_OWN_NEEDS_FULL'));
    recipient = { lastName: user.last_name, firstName: user.first_name, middleName: null };
    ownName = maskedName(user.first_name, user.last_name);
  }
  return { amount, bank, recipient, ownName, problems };
}

/**
 * The phones each sender was told a name for lately: the check is asked again as the amount is typed, and
 * a phone already counted under the recipient lookup's limit is not counted again (per instance; another
 * instance counts it once more, which only errs on the strict side).
 */
const namedLately = hintsPerDatabase<true>({ max: 100_000, ttlMs: 10 * 60_000 });

/** The recipient's masked name where the provider tells it; an outage only leaves it unsaid. */
async function recipientName(ctx: AppContext, phone: string, bankId: string): Promise<string | null> {
  try {
    return await ctx.payouts.sbpRecipientName(phone, bankId);
  } catch (error) {
    if (error instanceof PayoutUnavailable) return null;
    throw error;
  }
}

export async function sbpTransfer(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'sbpTransfer'>,
  options: { idempotencyKey: string | null; language: Language; sessionId?: string },
): Promise<AnswerOf<'sbpTransfer'>> {
  const { phone, bank_id: bankId, comment } = body;
  const payee = await sbpPayee(ctx, userId, body);
  if (payee.problems[0]) throw payee.problems[0];
  const bank = payee.bank!;
  const name = payee.ownName ?? (await recipientName(ctx, phone, bankId));
  return payOut(
    ctx,
    {
      userId,
      confirmation: body,
      purpose: 'withdrawal',
      amount: payee.amount,
      currency: 'RUB',
      destination: { type: 'sbp', phone, bankId, recipient: payee.recipient },
      shownDestination: maskPhone(phone),
      payeeName: name,
      payeeDetails: { bank_id: bank.id, bank_name: bank.name, comment: comment ?? null },
      fee: sbpFee(ctx.config, payee.amount),
      providerDescription: comment ?? null,
      scope: {
        userId,
        call: 'sbpTransfer',
        key: options.idempotencyKey,
        requestHash: requestHash(ctx, body),
      },
      sessionId: options.sessionId ?? null,
      language: options.language,
    },
    (payout) => ({
      status: 'success' as const,
      message: SBP_SENT[options.language],
      receipt: payoutReceiptOf(payout, options.language),
    }),
  );
}

/** POST /v2/wallet/sbp/check: СБП's rules and the door's, before the PIN; the name only when both are known. */
export async function checkSbp(
  ctx: AppContext,
  userId: string,
  body: SbpRequest,
  language: Language,
): Promise<AnswerOf<'sbpCheck'>> {
  const payee = await sbpPayee(ctx, userId, body);
  const fee = sbpFee(ctx.config, payee.amount);
  const problems = [
    ...payee.problems,
    ...(await paymentProblemsOf(ctx, {
      payer: userId,
      payee: null,
      currency: 'RUB',
      amount: payee.amount,
      kind: 'withdrawal',
      // The money must cover the fee too, as the transfer's door asks.
      ...(fee > 0n ? { payoutFee: { amount: fee } } : {}),
    })),
  ];
  let name = payee.ownName;
  if (!name && payee.bank && /^\+7\d{10}$/.test(body.phone)) {
    // A name for a phone tells who a number is: counted as every recipient lookup is, once per phone.
    const asked = `${userId}:${body.phone}`;
    if (!namedLately(ctx.db).get(asked)) {
      await countLookup(ctx, userId);
      namedLately(ctx.db).set(asked, true);
    }
    name = await recipientName(ctx, body.phone, payee.bank.id);
  }
  return {
    ...(await checkAnswer(ctx, userId, problems, language)),
    bank_name: payee.bank?.name ?? null,
    recipient_name: name,
    fee: formatAmount(fee, 'RUB'),
  };
}
