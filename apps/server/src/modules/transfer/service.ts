/**
 * Transfers between wallet users (decisions.md section 1 'Wallet save'): the recipient is found by
 * phone and shown only as a masked name ('Иван П.'); the transfer is confirmed with the PIN, allowed by
 * the sender's level (anonymous users may not transfer to people), within the sender's monthly limit
 * and the recipient's balance cap, and moved through the ledger in one transaction. The ledger notifies
 * both sides (money out, money in).
 *
 *   findRecipient(ctx, userId, phone)                 -> {userId, name, phone} (rate-limited per sender)
 *   sendToUser(q, ctx, {...})                         the movement itself, in the caller's transaction;
 *                                                     also used by QR payments to a wallet user (kind 'payment')
 *   transferMoney(ctx, userId, body, options)         POST /v2/wallet/transfer
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
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { openAccount, type Transfer, transfer } from '../../ledger/index.ts';
import { checkPin } from '../auth/pin.ts';
import { requestHash, withIdempotency } from '../idempotency/service.ts';
import {
  checkBalanceRoom,
  checkMonthlyRoom,
  checkSpendAllowed,
  lockUsers,
  moneyFigures,
} from '../identification/enforce.ts';
import { hit } from '../limits/limits.ts';
import { amountOf } from '../withdrawal/service.ts';

export type Receipt = AnswerOf<'transfer'>['receipt'];

export interface Recipient {
  userId: string;
  /** First name and the initial of the last name: all a sender learns about the recipient. */
  name: string;
  phone: string;
}

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
}

/** Users by phone, many phones in one query (batched across concurrent requests). */
const usersByPhone = batchedRead<string, UserRow>(async (q, phones) => {
  const { rows } = await q.query<UserRow>(
    'SELECT id, first_name, last_name, phone FROM users WHERE phone = ANY($1::text[])',
    [phones],
  );
  return new Map(rows.map((row) => [row.phone, row]));
});

async function userByPhone(q: Queryable, phone: string): Promise<Recipient | null> {
  const row = await usersByPhone(q, phone);
  return row ? { userId: row.id, name: maskedName(row.first_name, row.last_name), phone: row.phone } : null;
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

export { userByPhone };

export interface SendInput {
  senderId: string;
  recipient: Recipient;
  amount: bigint;
  currency: CurrencyCode;
  /** 'transfer' for the transfer call; 'payment' for a QR payment to a wallet user (statistics show it so). */
  kind: 'transfer' | 'payment';
}

/**
 * Moves money from the sender to the recipient in the caller's transaction: both users' rows locked in
 * one order (no deadlock between opposite transfers), then in one statement both accounts and the
 * figures of the limits, checked: the sender's permission and monthly limit, the recipient's balance
 * cap; then one ledger transfer. Three round trips.
 */
export async function sendToUser(q: Queryable, ctx: AppContext, input: SendInput): Promise<Transfer> {
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
  const fromName = maskedName(sender.firstName, sender.lastName);
  const label = input.kind === 'payment' ? { ru: 'Оплата по QR-коду', en: 'QR payment' } : null;
  const { transfer: moved } = await transfer(q, {
    debit: sent.accountId,
    credit: to,
    amount,
    currency,
    kind: input.kind,
    idempotencyKey: `${input.kind}:${randomUUID()}`,
    description: {
      debit: label
        ? { ru: `${label.ru}: ${recipient.name}`, en: `${label.en}: ${recipient.name}` }
        : { ru: `Перевод: ${recipient.name}`, en: `Transfer to ${recipient.name}` },
      credit: label
        ? { ru: `${label.ru} от ${fromName}`, en: `${label.en} from ${fromName}` }
        : { ru: `Перевод от ${fromName}`, en: `Transfer from ${fromName}` },
    },
    at,
  });
  return moved;
}

export function transferReceipt(moved: Transfer, recipient: Recipient, language: Language): Receipt {
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
  const recipient = await userByPhone(ctx.db, body.phone);
  if (!recipient) throw new AppError('RECIPIENT_NOT_FOUND');
  if (recipient.userId === userId) throw new AppError('RECIPIENT_SELF');
  await checkPin(ctx, userId, body.pin);
  return withIdempotency(
    ctx,
    { userId, call: 'transfer', key: options.idempotencyKey, requestHash: requestHash(ctx, body) },
    async (q) => {
      const moved = await sendToUser(q, ctx, {
        senderId: userId,
        recipient,
        amount,
        currency,
        kind: 'transfer',
      });
      return {
        status: 'success' as const,
        message: TRANSFER_SENT[options.language],
        receipt: transferReceipt(moved, recipient, options.language),
      };
    },
  );
}
