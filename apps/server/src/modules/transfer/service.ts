/**
 * Transfers between wallet users (decisions.md section 1 'Wallet save'): the recipient is found by
 * phone and shown only as a masked name ('Иван П.'); the transfer is confirmed with the PIN, allowed by
 * the sender's level (anonymous users may not transfer to people), within the sender's monthly limit
 * and the recipient's balance cap, and moved through the ledger in one transaction. The ledger notifies
 * both sides (money out, money in).
 *
 *   findRecipient(ctx, userId, phone)                 -> {userId, name, phone} (rate-limited per sender)
 *   payUser(ctx, payment, answerOf)                   a PIN-confirmed, idempotent payment to the user
 *                                                     with a phone: the transfer call, and QR payments
 *                                                     to a wallet user (kind 'payment')
 *   transferMoney(ctx, userId, body, options)         POST /v2/wallet/transfer
 *
 * A payment is one statement in the common case (`user_transfer`, migrations 0057 and 0059), and
 * its only round trip when this instance has hints of both people (db/hints.ts: the recipient by
 * phone, the signer's PIN salt from `auth/pin.ts`): both users locked with the PIN's HMAC compared
 * with the stored hash and the levels with those the hints or reads gave, the key claimed with its
 * answer, both accounts locked and the limits' figures on them compared with those levels' bounds,
 * the ledger's movement. Whatever that statement cannot prove it refuses whole; the hints are
 * forgotten, and the payment runs step by step in a transaction (`sendToUser`), which decides it
 * and names the error.
 */
import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_CURRENCIES,
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  formatAmount,
  type Language,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { batchedRead } from '../../db/batch.ts';
import { type Db, PG, pgCode, type Queryable } from '../../db/client.ts';
import { hintsPerDatabase } from '../../db/hints.ts';
import { AppError } from '../../errors.ts';
import { openAccount, type SidedText, type Transfer, transfer } from '../../ledger/index.ts';
import { checkPin, forgetSigner, type PinProof, provePin, rememberedPinProof } from '../auth/pin.ts';
import {
  type IdempotencyScope,
  repeatedAnswer,
  requestHash,
  type StoredAnswer,
  withIdempotency,
} from '../idempotency/service.ts';
import {
  checkBalanceRoom,
  checkMonthlyRoom,
  checkSpendAllowed,
  lockUsers,
  moneyFigures,
} from '../identification/enforce.ts';
import { type LevelName, levelRules, monthStart } from '../identification/levels.ts';
import { hit } from '../limits/limits.ts';
import { amountOf } from '../withdrawal/service.ts';

export type Receipt = AnswerOf<'transfer'>['receipt'];

export interface Recipient {
  userId: string;
  /** First name and the initial of the last name: all a sender learns about the recipient. */
  name: string;
  phone: string;
  /** Their identification level as read, for the limits; never shown to the sender. */
  level: LevelName;
}

/** What a receipt tells of a movement: a ledger transfer, or the one a payment is about to make. */
export type Movement = Pick<Transfer, 'id' | 'kind' | 'amount' | 'currency' | 'createdAt' | 'description'>;

export const TRANSFER_SENT: Record<Language, string> = {
  ru: 'Перевод выполнен',
  en: 'The transfer is complete',
};

export function maskedName(firstName: string, lastName: string): string {
  const initial = [...lastName.trim()][0];
  return initial ? `${firstName.trim()} ${initial.toUpperCase()}.` : firstName.trim();
}

interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
  identification_level: LevelName;
}

/** Users by phone, many phones in one query (batched across concurrent requests). */
const usersByPhone = batchedRead<string, UserRow>(async (q, phones) => {
  const { rows } = await q.query<UserRow>(
    'SELECT id, first_name, last_name, phone, identification_level FROM users WHERE phone = ANY($1::text[])',
    [phones],
  );
  return new Map(rows.map((row) => [row.phone, row]));
});

/**
 * Users by phone as this instance last read them. A user's id, names and phone never change; the
 * level does, and the payment's statement checks it (a refusal forgets the hint, `forgetRecipient`).
 */
const recipientHints = hintsPerDatabase<UserRow>({ max: 100_000, ttlMs: 10 * 60_000 });

function forgetRecipient(db: Db, phone: string): void {
  recipientHints(db).delete(phone);
}

async function userByPhone(db: Db, phone: string): Promise<Recipient | null> {
  const hints = recipientHints(db);
  let row = hints.get(phone);
  if (!row) {
    row = await usersByPhone(db, phone);
    if (row) hints.set(phone, row);
  }
  return row
    ? {
        userId: row.id,
        name: maskedName(row.first_name, row.last_name),
        phone: row.phone,
        level: row.identification_level,
      }
    : null;
}

/** Lookups per user per window: enough for typos, too few to walk the phone book. */
export const RECIPIENT_LOOKUPS = { windowSeconds: 600, max: 30 };

/**
 * The wallet user with this phone, as a sender may see them; RECIPIENT_NOT_FOUND or RECIPIENT_SELF.
 * Counted per sender (RATE_LIMITED), because each answer tells whether a number is a wallet user.
 */
export async function findRecipient(ctx: AppContext, senderId: string, phone: string): Promise<Recipient> {
  const counted = await hit(
    ctx.db,
    `recipient-lookup:${senderId}`,
    RECIPIENT_LOOKUPS.windowSeconds,
    RECIPIENT_LOOKUPS.max,
    ctx.clock.now(),
  );
  if (!counted.allowed) throw new AppError('RATE_LIMITED');
  const recipient = await userByPhone(ctx.db, phone);
  if (!recipient) throw new AppError('RECIPIENT_NOT_FOUND');
  if (recipient.userId === senderId) throw new AppError('RECIPIENT_SELF');
  return recipient;
}

/** What each side reads in its history: the sender the recipient's masked name, the recipient the sender's. */
function describe(kind: SendInput['kind'], recipientName: string, senderName: string): SidedText {
  if (kind === 'payment')
    return {
      debit: { ru: `Оплата по QR-коду: ${recipientName}`, en: `QR payment: ${recipientName}` },
      credit: { ru: `Оплата по QR-коду от ${senderName}`, en: `QR payment from ${senderName}` },
    };
  return {
    debit: { ru: `Перевод: ${recipientName}`, en: `Transfer to ${recipientName}` },
    credit: { ru: `Перевод от ${senderName}`, en: `Transfer from ${senderName}` },
  };
}

export interface SendInput {
  senderId: string;
  recipient: Recipient;
  amount: bigint;
  currency: CurrencyCode;
  /** 'transfer' for the transfer call; 'payment' for a QR payment to a wallet user (statistics show it so). */
  kind: 'transfer' | 'payment';
}

/**
 * Moves money from the sender to the recipient in the caller's transaction, step by step: both users'
 * rows locked in one order (no deadlock between opposite transfers), then in one statement both
 * accounts and the figures of the limits, checked: the sender's permission and monthly limit, the
 * recipient's balance cap; then one ledger transfer. Three round trips.
 */
async function sendToUser(q: Queryable, ctx: AppContext, input: SendInput): Promise<Transfer> {
  const { senderId, recipient, amount, currency } = input;
  const people = await lockUsers(q, ctx, [senderId, recipient.userId]);
  const figures = await moneyFigures(q, ctx, [senderId, recipient.userId], currency, senderId);
  const sender = people.get(senderId)!;
  const receiver = people.get(recipient.userId)!;
  const sent = figures.get(senderId)!;
  const received = figures.get(recipient.userId)!;
  // People may be paid only by those whose level allows transfers, whatever the call's name.
  checkSpendAllowed(sender, 'transfer');
  checkMonthlyRoom(sender, sent, amount, currency);
  checkBalanceRoom(receiver, received, amount, currency, 'RECIPIENT_LIMIT_BALANCE');
  if (!sent.accountId) throw new AppError('ACCOUNT_NOT_FOUND');
  const at = ctx.clock.now();
  let to = received.accountId;
  // Every user has a rouble account from registration; other currencies are the recipient's choice.
  if (!to && currency === 'RUB') to = (await openAccount(q, recipient.userId, 'RUB', at)).id;
  if (!to) throw new AppError('RECIPIENT_ACCOUNT_MISSING');
  const { transfer: moved } = await transfer(q, {
    debit: sent.accountId,
    credit: to,
    amount,
    currency,
    kind: input.kind,
    idempotencyKey: `${input.kind}:${randomUUID()}`,
    description: describe(input.kind, recipient.name, maskedName(sender.firstName, sender.lastName)),
    at,
  });
  return moved;
}

const USER_TRANSFER_SQL = `SELECT outcome, request_hash, answer FROM user_transfer($1::uuid, $2::text, $3::uuid,
  $4::text, $5::text, $6::bigint, $7::bigint, $8::timestamptz, $9::bigint, $10::uuid, $11::text, $12::text,
  $13::jsonb, $14::timestamptz, $15::text, $16::text, $17::text, $18::jsonb, $19::bytea)`;

/** user_transfer's refusal: it could not prove the payment allowed; nothing was written. */
const UNPROVEN = 'EW001';
const STEP_BY_STEP = Symbol('step by step');

/**
 * The payment in one statement (`user_transfer`, migrations 0057, 0059 and 0060), against the levels
 * the hints or reads gave and the PIN's proof: the bounds the rules give those levels go with it, and
 * the statement checks them, the levels and the proof under the users' locks. Its answer is made
 * first, since everything it tells is decided here (the transfer's id, the time, the texts), and
 * stored with the key. STEP_BY_STEP when the statement refused, or when the
 * levels read already refuse: the transaction of `sendToUser` then decides under the locks.
 */
async function payInOneStatement<A>(
  ctx: AppContext,
  payment: UserPayment,
  proof: PinProof,
  recipient: Recipient,
  answerOf: (moved: Movement, recipient: Recipient) => A,
): Promise<A | typeof STEP_BY_STEP> {
  const sender = proof.signer;
  const rules = levelRules(ctx.config.IDENTIFICATION_LIMITS);
  const spender = rules[sender.level];
  if (!spender.transfer) return STEP_BY_STEP;
  const { amount, currency, kind, scope } = payment;
  const rub = currency === 'RUB';
  const at = ctx.clock.now();
  const moved: Movement = {
    id: randomUUID(),
    kind,
    amount,
    currency,
    createdAt: at,
    description: describe(kind, recipient.name, maskedName(sender.firstName, sender.lastName)),
  };
  const answer = JSON.stringify(answerOf(moved, recipient));
  try {
    const { rows } = await ctx.db.query<StoredAnswer<A> & { outcome: 'created' | 'repeated' }>(
      USER_TRANSFER_SQL,
      [
        sender.id,
        sender.level,
        recipient.userId,
        recipient.level,
        currency,
        amount,
        rub ? spender.monthlyOutgoingMax : null,
        monthStart(at),
        rub ? rules[recipient.level].balanceMax : null,
        moved.id,
        kind,
        `${kind}:${moved.id}`,
        moved.description,
        at,
        scope.call,
        scope.key,
        scope.requestHash,
        scope.key === null ? null : answer,
        proof.hash,
      ],
    );
    const row = rows[0]!;
    // The first caller gets what every repeat will get: the stored JSON.
    return row.outcome === 'repeated' ? repeatedAnswer(scope, row) : (JSON.parse(answer) as A);
  } catch (error) {
    const code = pgCode(error);
    if (code === UNPROVEN || code === PG.deadlock || code === PG.serializationFailure) return STEP_BY_STEP;
    throw error;
  }
}

/** A payment as a call asks for it: to a phone, with the PIN, under the call's idempotency. */
export interface UserPayment extends Omit<SendInput, 'recipient'> {
  /** The recipient's phone, as the request named it. */
  phone: string;
  pin: string;
  /** The call's Idempotency-Key (or null) and the request's fingerprint. */
  scope: IdempotencyScope;
}

/**
 * A payment to the wallet user with a phone, confirmed with the sender's PIN: RECIPIENT_NOT_FOUND,
 * RECIPIENT_SELF, the PIN's errors, then the limits' and the ledger's. `answerOf` makes the call's
 * answer from the movement; a repeated key gets the first answer and moves nothing.
 */
export async function payUser<A>(
  ctx: AppContext,
  payment: UserPayment,
  answerOf: (moved: Movement, recipient: Recipient) => A,
): Promise<A> {
  const { senderId, pin } = payment;
  const recipient = await userByPhone(ctx.db, payment.phone);
  if (!recipient) throw new AppError('RECIPIENT_NOT_FOUND');
  if (recipient.userId === senderId) throw new AppError('RECIPIENT_SELF');
  // The PIN from the signer's hint goes unchecked to the statement, which checks it; without a hint
  // it is checked here first, as every refusal below checks it.
  const remembered = rememberedPinProof(ctx, senderId, pin);
  const proof = remembered ?? (await provePin(ctx, senderId, pin));
  const answer = await payInOneStatement(ctx, payment, proof, recipient, answerOf);
  if (answer !== STEP_BY_STEP) return answer;
  forgetSigner(ctx, senderId);
  forgetRecipient(ctx.db, payment.phone);
  if (remembered) await checkPin(ctx, senderId, pin);
  return withIdempotency(ctx, payment.scope, async (q) => {
    const { amount, currency, kind } = payment;
    return answerOf(await sendToUser(q, ctx, { senderId, recipient, amount, currency, kind }), recipient);
  });
}

export function transferReceipt(moved: Movement, recipient: Recipient, language: Language): Receipt {
  const description = moved.description?.debit[language] ?? '';
  return {
    id: moved.id,
    kind: moved.kind === 'payment' ? 'payment' : 'transfer',
    status: 'complete',
    amount: formatAmount(moved.amount, moved.currency),
    currency_code: moved.currency,
    created_at: moved.createdAt.toISOString(),
    description,
    counterparty: recipient.name,
    card: null,
    failure_reason: null,
  };
}

export async function transferMoney(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'transfer'>,
  options: { idempotencyKey: string | null; language: Language },
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
    { senderId: userId, phone: body.phone, pin: body.pin, amount, currency, kind: 'transfer', scope },
    (moved, recipient) => ({
      status: 'success' as const,
      message: TRANSFER_SENT[options.language],
      receipt: transferReceipt(moved, recipient, options.language),
    }),
  );
}
