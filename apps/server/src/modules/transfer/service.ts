/**
 * Payments from one wallet user to another
 * (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features 'Wallet save'): the recipient
 * is found by phone and shown only as a masked name ('Иван П.'); the payment is confirmed with the PIN and
 * moved by the ledger's one door for a person's payment (`pay`), which decides every rule of the limits; the
 * ledger notifies both sides (money out, money in).
 *
 *   findRecipient(ctx, userId, phone)           -> {userId, name, phone} (rate-limited per sender)
 *   payUser(ctx, payment, answerOf)             a PIN-confirmed, idempotent payment to the user with a
 *                                               phone: the transfer call, and QR payments to a wallet user
 *   transferMoney(ctx, userId, body, options)   POST /v2/wallet/transfer
 *   checkTransfer(ctx, userId, body, language)  POST /v2/wallet/transfer/check: the same rules, before the PIN
 */
import {
  ACCOUNT_CURRENCIES,
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
  type Language,
} from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import type { AppContext } from '../../context.ts';
import { batchedRead } from '../../db/batch.ts';
import type { Db } from '../../db/client.ts';
import { hintsPerDatabase } from '../../db/hints.ts';
import { AppError, isAppError } from '../../errors.ts';
import { findTransfer, newTransferId, type SidedText, type Transfer } from '../../ledger/index.ts';
import { amountOf } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { hit } from '../limits/index.ts';
import {
  type CheckAnswer,
  type Confirmation,
  checkAnswer,
  checkConfirmation,
  type IdempotencyScope,
  moneyCall,
  paymentProblemsOf,
  requestHash,
} from '../money-calls/index.ts';

export type Receipt = AnswerOf<'transfer'>['receipt'];

export interface Recipient {
  userId: string;
  /** First name and the initial of the last name: all a sender learns about the recipient. */
  name: string;
  phone: string;
}

/** What a receipt tells of a movement: a ledger transfer, or the one a payment is about to make. */
export type Movement = Pick<Transfer, 'id' | 'kind' | 'amount' | 'currency' | 'createdAt' | 'description'>;

export const TRANSFER_SENT: Record<Language, string> = {
  ru: 'Перевод выполнен',
  en: 'The transfer is complete',
};

interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
}

/** Users by phone, many phones in one query (batched across concurrent requests). */
const usersByPhone = batchedRead<string, UserRow>(async (q, phones) => {
  const { rows } = await q.query<UserRow>(
    'SELECT id, first_name, last_name, phone FROM users WHERE phone = ANY($1::text[])',
    [phones],
  );
  return new Map(rows.map((row) => [row.phone, row]));
});

/** Users by phone as this instance last read them: a user's id, names and phone never change. */
const recipientHints = hintsPerDatabase<UserRow>({ max: 100_000, ttlMs: 10 * 60_000 });

async function userByPhone(db: Db, phone: string): Promise<Recipient | null> {
  const hints = recipientHints(db);
  let row = hints.get(phone);
  if (!row) {
    row = await usersByPhone(db, phone);
    if (row) hints.set(phone, row);
  }
  return row ? { userId: row.id, name: maskedName(row.first_name, row.last_name), phone: row.phone } : null;
}

/** Lookups per user per window: enough for typos, too few to walk the phone book. */
export const RECIPIENT_LOOKUPS = { windowSeconds: 600, max: 30 };

/**
 * The wallet user with this phone, as a sender may see them; RECIPIENT_NOT_FOUND or RECIPIENT_SELF.
 * Counted per sender (RATE_LIMITED), because each answer tells whether a number is a wallet user.
 */
export async function findRecipient(ctx: AppContext, senderId: string, phone: string): Promise<Recipient> {
  await countLookup(ctx, senderId);
  const recipient = await userByPhone(ctx.db, phone);
  if (!recipient) throw new AppError('RECIPIENT_NOT_FOUND');
  if (recipient.userId === senderId) throw new AppError('RECIPIENT_SELF');
  return recipient;
}

/**
 * One resolution of a phone to a person by this sender, under the limit every such call shares (an СБП
 * check's recipient name counts too).
 */
export async function countLookup(ctx: AppContext, senderId: string): Promise<void> {
  const counted = await hit(
    ctx.db,
    `recipient-lookup:${senderId}`,
    RECIPIENT_LOOKUPS.windowSeconds,
    RECIPIENT_LOOKUPS.max,
    ctx.clock.now(),
  );
  if (!counted.allowed) throw new AppError('RATE_LIMITED');
}

/**
 * What each side reads in its history: the sender the recipient's masked name, the recipient the sender's;
 * the English side in Latin letters (docs/decisions/language-and-format.md#names-on-english-screens).
 */
function describe(kind: SendInput['kind'], recipientRu: string, senderRu: string): SidedText {
  const [recipientName, senderName] = [nameIn(recipientRu, 'en'), nameIn(senderRu, 'en')];
  if (kind === 'payment')
    return {
      debit: { ru: `Оплата по QR-коду: ${recipientRu}`, en: `QR payment: ${recipientName}` },
      credit: { ru: `Оплата по QR-коду: ${senderRu}`, en: `QR payment from ${senderName}` },
    };
  return {
    debit: { ru: `Перевод: ${recipientRu}`, en: `Transfer to ${recipientName}` },
    credit: { ru: `Перевод: ${senderRu}`, en: `Transfer from ${senderName}` },
  };
}

/** What a payment to a person moves: 'transfer' for the transfer call, 'payment' for a QR payment. */
export interface SendInput {
  senderId: string;
  amount: bigint;
  currency: CurrencyCode;
  kind: 'transfer' | 'payment';
}

/** A payment as a call asks for it: to a phone, with the PIN, under the call's idempotency. */
export interface UserPayment extends SendInput {
  /** The recipient's phone, as the request named it. */
  phone: string;
  confirmation: Confirmation;
  /** The call's Idempotency-Key (or null) and the request's fingerprint. */
  scope: IdempotencyScope;
  /** The session that asked and its language: the antifraud check reads the one, answers in the other. */
  sessionId?: string;
  language?: Language;
}

/**
 * A payment to the wallet user with a phone, through the money-call pipeline: the PIN's errors first
 * (so that no answer tells a wrong PIN whether a number is a wallet user), then RECIPIENT_NOT_FOUND,
 * RECIPIENT_SELF and the door's refusals. Every answer that tells whether a phone is a wallet user
 * without moving money counts under the recipient lookup's limit (docs/security.md); a completed
 * payment does not, since each one costs the sender money and tells the recipient. `answerOf` makes
 * the call's answer from the movement before it happens.
 */
export async function payUser<A>(
  ctx: AppContext,
  payment: UserPayment,
  answerOf: (moved: Movement, counterparty: string, language: Language) => A,
): Promise<A> {
  const { senderId, amount, currency, kind, scope } = payment;
  const recipient = await userByPhone(ctx.db, payment.phone);
  if (!recipient || recipient.userId === senderId) {
    await checkConfirmation(ctx, senderId, payment.confirmation);
    await countLookup(ctx, senderId);
    throw new AppError(recipient ? 'RECIPIENT_SELF' : 'RECIPIENT_NOT_FOUND');
  }
  const payee = recipient;
  const at = ctx.clock.now();
  const moved: Movement = { id: newTransferId(), kind, amount, currency, createdAt: at, description: null };
  const language = payment.language ?? 'ru';
  return moneyCall(ctx, {
    call: scope.call,
    person: senderId,
    confirmation: payment.confirmation,
    key: scope.key,
    requestHash: scope.requestHash,
    prepare: (signer) => {
      // The sender's name comes with the PIN's proof.
      moved.description = describe(kind, payee.name, maskedName(signer!.firstName, signer!.lastName));
      return {
        answer: answerOf(moved, payee.name, language),
        // The receipt is the transfer's: the key keeps what the transfer does not say.
        kept: { kept: moved.id, counterparty: payee.name, language },
        door: {
          door: 'pay',
          id: moved.id,
          payer: senderId,
          payee: payee.userId,
          currency,
          amount,
          kind,
          description: moved.description,
          at,
          rules: ctx.config.levelRulesJson,
        },
      };
    },
    answerOfKept: async (q, kept) => {
      const first = await findTransfer(q, kept.kept);
      if (!first) throw new Error(`kept answer without its transfer ${kept.kept}`);
      return answerOf(first, kept.counterparty ?? '', (kept.language ?? 'ru') as Language);
    },
    // A refusal tells that the phone is a wallet user without moving money: counted as a lookup.
    refused: () => countLookup(ctx, senderId),
    antifraud: {
      payee: { userId: payee.userId, phone: payee.phone, label: payee.name },
      amount,
      currency,
      sessionId: payment.sessionId ?? null,
      language,
    },
  });
}

/** The receipt of a payment posted at once (to a person, a request, a merchant), naming its `counterparty`. */
export function transferReceipt(moved: Movement, counterparty: string, language: Language): Receipt {
  const description = moved.description?.debit[language] ?? '';
  return {
    id: moved.id,
    kind: moved.kind === 'payment' ? 'payment' : 'transfer',
    status: 'complete',
    amount: formatAmount(moved.amount, moved.currency),
    currency_code: moved.currency,
    created_at: moved.createdAt.toISOString(),
    description,
    counterparty,
    card: null,
    failure_reason: null,
  };
}

export async function transferMoney(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'transfer'>,
  options: { idempotencyKey: string | null; language: Language; sessionId?: string },
): Promise<AnswerOf<'transfer'>> {
  const currency = body.currency_code;
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(currency))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = amountOf(body.amount, currency);
  const scope = {
    userId,
    call: 'transfer' as const,
    key: options.idempotencyKey,
    requestHash: requestHash(ctx, body),
  };
  return payUser(
    ctx,
    {
      senderId: userId,
      phone: body.phone,
      confirmation: body,
      amount,
      currency,
      kind: 'transfer',
      scope,
      language: options.language,
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    },
    (moved, counterparty, language) => ({
      status: 'success' as const,
      message: TRANSFER_SENT[language],
      receipt: transferReceipt(moved, counterparty, language),
    }),
  );
}

/**
 * Whether a payment to the person with a phone can go through, before the PIN: the recipient is
 * resolved as the lookup call does (counted under the same limit), then the payment door's rules.
 */
export async function checkPaymentToPerson(
  ctx: AppContext,
  userId: string,
  payment: { phone: string; amount: bigint; currency: CurrencyCode; kind: SendInput['kind'] },
  language: Language,
): Promise<CheckAnswer> {
  let recipient: Recipient;
  try {
    recipient = await findRecipient(ctx, userId, payment.phone);
  } catch (error) {
    if (isAppError(error) && (error.code === 'RECIPIENT_NOT_FOUND' || error.code === 'RECIPIENT_SELF'))
      return checkAnswer(ctx, userId, [error], language);
    throw error;
  }
  const { amount, currency, kind } = payment;
  const problems = await paymentProblemsOf(ctx, {
    payer: userId,
    payee: recipient.userId,
    currency,
    amount,
    kind,
  });
  return checkAnswer(ctx, userId, problems, language);
}

export async function checkTransfer(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'transferCheck'>,
  language: Language,
): Promise<CheckAnswer> {
  const currency = body.currency_code;
  if (!(ACCOUNT_CURRENCIES as readonly string[]).includes(currency))
    throw new AppError('CURRENCY_NOT_SUPPORTED');
  const amount = amountOf(body.amount, currency);
  return checkPaymentToPerson(
    ctx,
    userId,
    { phone: body.phone, amount, currency, kind: 'transfer' },
    language,
  );
}
