/**
 * A person's payment, through the ledger's one door for it (`ledger_pay`, db/functions/payments.sql),
 * and the questions the limits answer (db/functions/limits.sql). Every rule is decided by the
 * database; this file passes the figures in and names the outcome, and `refusalError` turns a
 * refusal into the contract's error.
 */

import { randomInt } from 'node:crypto';
import type { CallName, CurrencyCode } from '@e-wallet/contract';
import { ID_PATTERN, MAX_MINOR } from '@e-wallet/contract';
import { isDb, PG, pgCode, type Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { rubParam } from '../policy/levels.ts';
import type { SidedText } from './index.ts';

export type RefusalRule =
  | 'pin'
  | 'account_missing'
  | 'payee_account_missing'
  | 'wallet_frozen'
  | 'transfer_not_allowed'
  | 'withdrawal_not_allowed'
  | 'topup_not_allowed'
  | 'limit_monthly'
  | 'limit_balance'
  | 'recipient_limit_balance'
  | 'insufficient_funds'
  | 'exchange_not_allowed'
  | 'quote_expired';

/** Why the limits refuse, with the figures the message needs (RUB minor units, as text). */
export interface Refusal {
  rule: RefusalRule;
  limit?: string;
  left?: string;
}

export interface PaymentInput {
  /** The transfer's id, made by the caller: its answer names it before the money moves. */
  id: string;
  payer: string;
  /** The person paid, or null: the money is held toward the currency's payout clearing account. */
  payee: string | null;
  currency: CurrencyCode;
  amount: bigint;
  kind: 'transfer' | 'payment' | 'withdrawal';
  reference?: { type: string; id: string } | null;
  description: SidedText;
  at: Date;
  /** The level figures in force: `config.levelRulesJson`. */
  rules: string;
  /**
   * The HMAC of the PIN as given, with the payer's salt (modules/auth/pin.ts proves it); null only for
   * a run of a scheduled transfer, which its active standing order authorises (payments.sql).
   */
  pinProof: Buffer | null;
  /** The call: its name, the client's Idempotency-Key (or null), the request's fingerprint, its answer. */
  call: { name: CallName; key: string | null; requestHash: string; answer: unknown };
}

export type PaymentOutcome =
  | { outcome: 'created' }
  | { outcome: 'repeated'; requestHash: string; answer: unknown }
  | { outcome: 'refused'; refusal: Refusal };

const PAY_SQL = `SELECT outcome, refusal, problems, first_request_hash, first_answer FROM ledger_pay(
  movement_id => $1::uuid, payer => $2::uuid, payee => $3::uuid, system_account => $4::text,
  currency => $5::text, amount => $6::bigint, kind => $7::text, hold => $8::boolean,
  reference_type => $9::text, reference_id => $10::text, description => $11::jsonb, at => $12::timestamptz,
  rules => $13::jsonb, pin_proof => $14::bytea, call_name => $15::text, call_key => $16::text,
  request_hash => $17::text, answer => $18::jsonb, check_only => $19::boolean)`;

interface PayRow {
  outcome: PaymentOutcome['outcome'] | 'allowed';
  refusal: Refusal | null;
  problems: Refusal[] | null;
  first_request_hash: string | null;
  first_answer: unknown;
}

function payParams(input: PaymentCheck, pay?: Pick<PaymentInput, 'id' | 'pinProof' | 'call'>): unknown[] {
  if (input.amount <= 0n || input.amount > MAX_MINOR) throw new Error('ledger: amount out of range');
  if (!ID_PATTERN.test(input.payer) || (input.payee !== null && !ID_PATTERN.test(input.payee)))
    throw new Error('ledger: a payment names its people by id');
  const call = pay?.call;
  return [
    pay?.id ?? null,
    input.payer,
    input.payee,
    input.payee === null ? 'payout_clearing' : null,
    input.currency,
    input.amount,
    input.kind,
    input.payee === null,
    input.reference?.type ?? null,
    input.reference?.id ?? null,
    input.description ?? null,
    input.at,
    input.rules,
    pay?.pinProof ?? null,
    call?.name ?? null,
    call?.key ?? null,
    call?.requestHash ?? null,
    call && call.key !== null ? JSON.stringify(call.answer) : null,
    pay === undefined,
  ];
}

/**
 * A person's payment in one statement: to another person at once, or held toward payout clearing
 * (then settled with postHold or voidHold). Nothing is written unless the outcome is 'created'.
 */
export async function pay(q: Queryable, input: PaymentInput): Promise<PaymentOutcome> {
  const row = await payStatement(q, payParams(input, input));
  if (row.outcome === 'repeated')
    return { outcome: 'repeated', requestHash: row.first_request_hash ?? '', answer: row.first_answer };
  if (row.outcome === 'refused') return { outcome: 'refused', refusal: row.refusal! };
  return { outcome: 'created' };
}

/** What a payment's check asks: the payment without its id, PIN and call. */
export type PaymentCheck = Omit<PaymentInput, 'id' | 'pinProof' | 'call' | 'description'> & {
  description?: PaymentInput['description'];
};

/**
 * Every rule that would refuse this payment now, asked of the same statement without the PIN and
 * without writing anything (the answers before the PIN); empty when it could go through.
 */
export async function paymentProblems(q: Queryable, input: PaymentCheck): Promise<Refusal[]> {
  return (await payStatement(q, payParams(input))).problems ?? [];
}

/**
 * The statement, on its own or in the caller's transaction. On its own it is a whole transaction, so
 * one that a deadlock or a serialization failure rolled back is run again (a person's rows and a
 * payout clearing account can be locked in another order by a settlement); in a transaction the
 * caller's `tx` runs it again with the rest.
 */
async function payStatement(q: Queryable, params: unknown[]): Promise<PayRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await q.query<PayRow>(PAY_SQL, params);
      return rows[0]!;
    } catch (error) {
      const code = pgCode(error);
      const again = isDb(q) && (code === PG.deadlock || code === PG.serializationFailure) && attempt < 8;
      if (!again) throw error;
      await new Promise((resolve) => setTimeout(resolve, randomInt(Math.min(50, 2 ** attempt) + 1)));
    }
  }
}

/** The contract's error for a refusal of the limits (the PIN's refusal is the PIN check's to name). */
export function refusalError(refusal: Refusal): AppError {
  const limit = () => rubParam(BigInt(refusal.limit ?? '0'));
  switch (refusal.rule) {
    case 'account_missing':
      return new AppError('ACCOUNT_NOT_FOUND');
    case 'payee_account_missing':
      return new AppError('RECIPIENT_ACCOUNT_MISSING');
    case 'wallet_frozen':
      return new AppError('WALLET_FROZEN');
    case 'transfer_not_allowed':
      return new AppError('TRANSFER_NOT_ALLOWED');
    case 'withdrawal_not_allowed':
      return new AppError('WITHDRAWAL_NOT_ALLOWED');
    case 'topup_not_allowed':
      return new AppError('TOPUP_NOT_ALLOWED');
    case 'limit_monthly':
      return new AppError('LIMIT_MONTHLY', { limit: limit(), left: rubParam(BigInt(refusal.left ?? '0')) });
    case 'limit_balance':
      return new AppError('LIMIT_BALANCE', { limit: limit() });
    case 'recipient_limit_balance':
      return new AppError('RECIPIENT_LIMIT_BALANCE', { limit: limit() });
    case 'insufficient_funds':
      return new AppError('INSUFFICIENT_FUNDS');
    case 'exchange_not_allowed':
      return new AppError('EXCHANGE_NOT_ALLOWED');
    case 'quote_expired':
      return new AppError('QUOTE_EXPIRED');
    case 'pin':
      throw new Error('ledger: the PIN is decided by modules/auth/pin.ts');
  }
}

/**
 * Why a top-up of `amount` may not start, or null: the level's permission and the balance cap with
 * what pending orders reserve. Locks the person's row for the caller's transaction.
 */
export async function topUpRefusal(
  q: Queryable,
  rules: string,
  userId: string,
  currency: CurrencyCode,
  amount: bigint,
  at: Date,
): Promise<Refusal | null> {
  const { rows } = await q.query<{ refusal: Refusal | null }>(
    'SELECT limits_topup_refusal($1::jsonb, $2::uuid, $3::text, $4::bigint, $5::timestamptz) AS refusal',
    [rules, userId, currency, amount, at],
  );
  return rows[0]?.refusal ?? null;
}

/**
 * What counted left the person's accounts in the calendar month of `at`, in roubles at the current
 * rates (the monthly limit's figure).
 */
export async function sentThisMonth(q: Queryable, userId: string, at: Date): Promise<bigint> {
  const { rows } = await q.query<{ sent: bigint | null }>(
    'SELECT limits_sent_in_month_total($1::uuid, $2::timestamptz) AS sent',
    [userId, at],
  );
  return rows[0]?.sent ? BigInt(rows[0].sent) : 0n;
}
