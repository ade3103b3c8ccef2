/**
 * Held operations as rows (`money_holds`, docs/decisions/antifraud.md#antifraud-and-the-trusted-person):
 * recorded by the money-call pipeline in the transaction whose door held the money, told to the person (and
 * their trusted person) at once: a notification (the bell, the live stream and a push) in the transaction, an
 * SMS after the commit. modules/holds releases, cancels and expires them.
 */
import {
  type CurrencyCode,
  formatAmount,
  formatMoney,
  type HeldAnswer,
  type HoldReason,
  type Language,
} from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import type { Payment } from '../../ledger/index.ts';
import { shortMoney } from '../../policy/amounts.ts';
import { maskedName } from '../../policy/names.ts';
import { sendNotice } from '../auth/index.ts';
import { notify } from '../notifications/index.ts';
import type { HoldVerdict } from './assess.ts';
import {
  fill,
  REASON_TEXTS,
  reasonList,
  reasonSentence,
  reasonText,
  SMS,
  type TrustedNamed,
} from './texts.ts';

/**
 * Whether the person's earlier call of `callName` on the same row (a request, a merchant's payment) waits
 * in a hold: the row stays payable until the hold is released, and a second pay would hold the money twice.
 */
export async function holdWaitsFor(
  q: Queryable,
  person: string,
  callName: string,
  reference: { type: string; id: string },
): Promise<boolean> {
  const { rows } = await q.query<{ waits: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM money_holds WHERE user_id = $1 AND call_name = $2
       AND status IN ('held', 'awaiting_approval', 'releasing')
       AND door -> 'reference' ->> 'type' = $3 AND door -> 'reference' ->> 'id' = $4) AS waits`,
    [person, callName, reference.type, reference.id],
  );
  return rows[0]!.waits;
}

/** How long a held operation waits for the person, and an approval for the trusted person. */
export const HOLD_HOURS = 48;
export const APPROVAL_HOURS = 12;

export type HoldStatus =
  | 'held'
  | 'awaiting_approval'
  | 'releasing'
  | 'released'
  | 'cancelled'
  | 'expired'
  | 'declined'
  | 'refused';

export interface HoldRow {
  id: string;
  user_id: string;
  call_name: string;
  kind: 'transfer' | 'payment' | 'withdrawal';
  payee_id: string | null;
  payee_label: string;
  amount: bigint;
  currency: CurrencyCode;
  door: StoredDoor;
  answer: unknown;
  hold_transfer_id: string;
  movement_id: string;
  reasons: HoldReason[];
  status: HoldStatus;
  approver_id: string | null;
  expires_at: Date;
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
}

export const HOLD_COLUMNS = `id, user_id, call_name, kind, payee_id, payee_label, amount, currency, door, answer,
  hold_transfer_id, movement_id, reasons, status, approver_id, expires_at, created_at, decided_at, decided_by`;

/** A person's door as JSON: the amounts as text, the time given again when it is opened. */
export type StoredDoor = Omit<Payment, 'amount' | 'at' | 'payoutFee' | 'merchant'> & {
  amount: string;
  payoutFee?: Omit<NonNullable<Payment['payoutFee']>, 'amount'> & { amount: string };
  merchant?: Omit<NonNullable<Payment['merchant']>, 'fee'> & { fee: string };
};

export function storedDoor(door: Payment): StoredDoor {
  const { amount, at: _at, payoutFee, merchant, ...rest } = door;
  return {
    ...rest,
    amount: amount.toString(),
    ...(payoutFee ? { payoutFee: { ...payoutFee, amount: payoutFee.amount.toString() } } : {}),
    ...(merchant ? { merchant: { ...merchant, fee: merchant.fee.toString() } } : {}),
  };
}

export function doorOf(stored: StoredDoor, at: Date): Payment {
  const { payoutFee, merchant, ...rest } = stored;
  return {
    ...rest,
    amount: BigInt(stored.amount),
    at,
    ...(payoutFee ? { payoutFee: { ...payoutFee, amount: BigInt(payoutFee.amount) } } : {}),
    ...(merchant ? { merchant: { ...merchant, fee: BigInt(merchant.fee) } } : {}),
  };
}

/** Who approves, as the reasons name them in the reader's language; null when nobody does. */
export function trustedNamed(
  approver: { name: string; threshold: bigint } | undefined | null,
  language: Language,
): TrustedNamed | null {
  if (!approver) return null;
  return {
    name: approver.name,
    threshold: shortMoney(approver.threshold, 'RUB', language),
  };
}

export function heldAnswerOf(id: string, verdict: HoldVerdict, language: Language): HeldAnswer {
  return {
    status: verdict.status,
    hold_id: id,
    reason: reasonSentence(verdict.reasons, language),
    reasons: verdict.reasons,
    reason_list: reasonList(verdict.reasons, language, trustedNamed(verdict.approver, language)),
  };
}

export interface NewHold {
  id: string;
  userId: string;
  callName: string;
  kind: HoldRow['kind'];
  payeeId: string | null;
  payeeLabel: string;
  door: Payment;
  answer: unknown;
  holdTransferId: string;
  verdict: HoldVerdict;
  at: Date;
}

export function expiryOf(verdict: HoldVerdict, at: Date): Date {
  const hours = verdict.status === 'awaiting_approval' ? APPROVAL_HOURS : HOLD_HOURS;
  return new Date(at.getTime() + hours * 3_600_000);
}

/** The words a notification about a hold carries, in both languages, and the operation it opens. */
export function holdParams(
  row: Pick<HoldRow, 'amount' | 'currency' | 'payee_label' | 'reasons' | 'hold_transfer_id'>,
): Record<string, string> {
  const amount = formatAmount(row.amount, row.currency);
  return {
    operation: row.hold_transfer_id,
    amount: formatMoney(amount, row.currency, 'ru'),
    amount_en: formatMoney(amount, row.currency, 'en'),
    payee: row.payee_label,
    reason: reasonText(row.reasons, 'ru'),
    reason_en: reasonText(row.reasons, 'en'),
  };
}

/** Writes the held operation beside its ledger hold, and tells the person and the trusted person. */
export async function recordHold(q: Queryable, hold: NewHold): Promise<void> {
  const { verdict, door } = hold;
  await q.query(
    `INSERT INTO money_holds (id, user_id, call_name, kind, payee_id, payee_label, amount, currency, door, answer,
       hold_transfer_id, movement_id, reasons, status, approver_id, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      hold.id,
      hold.userId,
      hold.callName,
      hold.kind,
      hold.payeeId,
      hold.payeeLabel,
      door.amount,
      door.currency,
      JSON.stringify(storedDoor(door)),
      JSON.stringify(hold.answer),
      hold.holdTransferId,
      door.id,
      verdict.reasons,
      verdict.status,
      verdict.approverId,
      expiryOf(verdict, hold.at),
      hold.at,
    ],
  );
  const params = holdParams({
    amount: door.amount,
    currency: door.currency,
    payee_label: hold.payeeLabel,
    reasons: verdict.reasons,
    hold_transfer_id: hold.holdTransferId,
  });
  await notify(
    q,
    hold.userId,
    'security',
    verdict.status === 'held' ? 'hold_created' : 'hold_awaiting',
    params,
    hold.at,
  );
  if (verdict.approverId) {
    const person = await nameOf(q, hold.userId);
    await notify(q, verdict.approverId, 'security', 'approval_requested', { ...params, person }, hold.at);
  }
}

async function nameOf(q: Queryable, userId: string): Promise<string> {
  const { rows } = await q.query<{ first_name: string; last_name: string }>(
    'SELECT first_name, last_name FROM users WHERE id = $1',
    [userId],
  );
  const row = rows[0];
  return row ? maskedName(row.first_name, row.last_name) : '';
}

/** After the commit: the SMS out of band, to the person's own phone and to the trusted person's. */
export async function tellHeld(ctx: AppContext, hold: NewHold, language: Language): Promise<void> {
  const { rows } = await ctx.db.query<{
    id: string;
    phone: string;
    first_name: string;
    last_name: string;
    language: Language;
  }>('SELECT id, phone, first_name, last_name, language FROM users WHERE id = ANY($1::uuid[])', [
    [hold.userId, hold.verdict.approverId].filter((id): id is string => id !== null),
  ]);
  const payer = rows.find((row) => row.id === hold.userId);
  const approver = rows.find((row) => row.id === hold.verdict.approverId);
  const amount = formatMoney(
    formatAmount(hold.door.amount, hold.door.currency),
    hold.door.currency,
    language,
  );
  if (payer && hold.verdict.status === 'held')
    await sendNotice(
      ctx,
      payer.phone,
      fill(SMS.held[language], { amount, reason: reasonText(hold.verdict.reasons, language) }),
    );
  // The trusted person reads it in their own language, not the payer's.
  if (payer && approver)
    await sendNotice(
      ctx,
      approver.phone,
      fill(SMS.approval[approver.language], {
        person: nameIn(maskedName(payer.first_name, payer.last_name), approver.language),
        amount: formatMoney(
          formatAmount(hold.door.amount, hold.door.currency),
          hold.door.currency,
          approver.language,
        ),
      }),
    );
}

export { REASON_TEXTS };
