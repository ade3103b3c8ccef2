/**
 * The SQL doors of money calls, as the money-call pipeline (modules/money-calls) runs them:
 *   ledger_pay       (db/functions/payments.sql)  a person's money to a person or out of the wallet
 *                    (held toward payout clearing)
 *   ledger_exchange  (payments.sql)               an exchange between their own accounts
 *   ledger_goal      (payments.sql)               a move into or out of their savings goal
 *   ops_refund       (db/functions/ops.sql)       an operator's correcting transfer, under four eyes
 *   ledger_merchant_refund (db/functions/merchants.sql)  a merchant's refund to its payer
 *   ledger_merchant_settle (merchants.sql)        a merchant's money held toward payout clearing
 * The person's doors take their call as one jsonb of named fields and share one prologue and one
 * epilogue with ops_refund (payments.sql).
 * Every rule is decided by the database; both doors answer alike (created | repeated | refused with
 * the rule and its figures), and this file only passes the figures in and names the outcome.
 */

import { randomInt } from 'node:crypto';
import type { CallName, CurrencyCode } from '@e-wallet/contract';
import { ID_PATTERN, MAX_MINOR } from '@e-wallet/contract';
import { isDb, PG, pgCode, type Queryable } from '../db/client.ts';
import type { SidedText } from './index.ts';

/** The rules a door refuses by (payments.sql, ops.sql and limits.sql name them). */
export type RefusalRule =
  | 'pin'
  | 'account_missing'
  | 'payee_account_missing'
  | 'wallet_frozen'
  | 'wallet_closed'
  | 'recipient_closed'
  | 'transfer_not_allowed'
  | 'withdrawal_not_allowed'
  | 'topup_not_allowed'
  | 'limit_monthly'
  | 'limit_balance'
  | 'recipient_limit_balance'
  | 'insufficient_funds'
  | 'exchange_not_allowed'
  | 'quote_expired'
  | 'missing'
  | 'not_proposed'
  | 'four_eyes'
  | 'not_refundable'
  | 'refund_exceeds'
  | 'merchant_not_active';

/** Why a door refuses, with the figures the message needs (minor units, as text, in RUB unless named). */
export interface Refusal {
  rule: RefusalRule;
  limit?: string;
  left?: string;
  currency?: string;
}

/** A person's payment as `ledger_pay` takes it (the pipeline adds the PIN's proof and the call). */
export interface Payment {
  door: 'pay';
  /** The movement's id, made by the caller: its answer names it before the money moves. */
  id: string;
  payer: string;
  /** The person paid, or null: the money is held toward the currency's payout clearing account. */
  payee: string | null;
  currency: CurrencyCode;
  amount: bigint;
  kind: 'transfer' | 'payment' | 'withdrawal';
  reference?: { type: string; id: string } | null;
  /** `way: 'sbp'` marks an СБП transfer for the history (its 'Повторить' opens the СБП form). */
  description: SidedText & { way?: 'sbp' };
  at: Date;
  /** The level figures in force: `config.levelRulesJson`. */
  rules: string;
  /**
   * Held toward this system account instead (payee null): an operation the antifraud check stopped,
   * whose money waits there until it is released or returned
   * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
   */
  toward?: 'antifraud_hold';
  /**
   * A merchant's payment (payee null): posted into the merchant's account, and its fee moved on from
   * there to the 'fees' account as the transfer `feeId`, in the same statement
   * (docs/decisions/merchants.md#merchants).
   */
  merchant?: { account: string; fee: bigint; feeId: string; feeDescription: SidedText };
  /**
   * A payout's fee (held toward payout clearing): held beside it toward 'fees' as the transfer `id`,
   * settled with the payout (docs/decisions/sbp.md#fees). The money must cover both.
   */
  payoutFee?: { amount: bigint; id: string; description: SidedText };
}

/** An exchange between a person's own accounts: the quote's figures, moved once. */
export interface Exchange {
  door: 'exchange';
  quoteId: string;
  person: string;
  /** Ids of the two transfers: out of the from-account, into the to-account. */
  outId: string;
  inId: string;
  description: SidedText & Record<string, unknown>;
  at: Date;
  rules: string;
}

/** An operator's approval of a proposed refund (the approver is the call's person). */
export interface Refund {
  door: 'refund';
  refundId: string;
  approver: string;
  movementId: string;
  description: SidedText;
  at: Date;
  rules: string;
}

/**
 * A move between a person's account and one of their savings goals
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): 'close' returns all of it and
 * closes the goal, the one move that asks no PIN.
 */
export interface GoalMove {
  door: 'goal';
  id: string;
  person: string;
  goalId: string;
  direction: 'deposit' | 'withdraw' | 'close';
  amount: bigint;
  /**
   * A regular deposit's run names its standing order, which stands for the PIN
   * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
   */
  reference?: { type: 'scheduled_transfer'; id: string } | null;
  description: SidedText;
  at: Date;
}

/**
 * A merchant's refund of its paid payment, from its account back to the payer's at once
 * (docs/decisions/merchants.md#merchants); the merchant owns the call's key.
 */
export interface MerchantRefund {
  door: 'merchantRefund';
  id: string;
  merchant: string;
  paymentId: string;
  amount: bigint;
  description: SidedText;
  at: Date;
}

/**
 * A merchant's settlement (docs/decisions/merchants.md#settlement): its money held toward payout clearing
 * for the payout `reference` names; the owner (`person`) owns the call's key and gives the PIN.
 */
export interface MerchantSettle {
  door: 'merchantSettle';
  id: string;
  person: string;
  merchant: string;
  amount: bigint;
  reference: { type: 'payout'; id: string };
  description: SidedText;
  at: Date;
}

export type Door = Payment | Exchange | Refund | GoalMove | MerchantRefund | MerchantSettle;

/**
 * A money call's name: the contract's call, an operator's call of the back office, or the daily
 * settlement's run (its door asks no PIN of it alone).
 */
export type MoneyCallName = CallName | 'opsRefundApprove' | 'merchantSettlementRun';

/** What the pipeline adds to a door: the PIN's proof (null where none is asked) and the call. */
export interface Confirmed {
  /** The HMAC of the PIN as given, with the payer's salt (modules/auth proves it); null for a schedule's run. */
  pinProof: Buffer | null;
  /** The call: its name, the client's Idempotency-Key (or null), the request's fingerprint, its answer. */
  call: { name: MoneyCallName; key: string | null; requestHash: string; answer: unknown };
}

export type DoorOutcome =
  | { outcome: 'created' }
  | { outcome: 'repeated'; requestHash: string; answer: unknown }
  | { outcome: 'refused'; refusal: Refusal };

interface DoorRow {
  outcome: DoorOutcome['outcome'] | 'allowed';
  refusal: Refusal | null;
  problems: Refusal[] | null;
  first_request_hash: string | null;
  first_answer: unknown;
}

const ANSWER = 'outcome, refusal, problems, first_request_hash, first_answer';

// Each door takes its call as one jsonb of named fields, beside the level rules and the PIN's proof.
const PAY_SQL = `SELECT ${ANSWER} FROM ledger_pay(call => $1::jsonb, rules => $2::jsonb, pin_proof => $3::bytea)`;
const EXCHANGE_SQL = `SELECT ${ANSWER} FROM ledger_exchange(call => $1::jsonb, rules => $2::jsonb, pin_proof => $3::bytea)`;
const GOAL_SQL = `SELECT ${ANSWER} FROM ledger_goal(call => $1::jsonb, pin_proof => $2::bytea)`;
const MERCHANT_REFUND_SQL = `SELECT ${ANSWER} FROM ledger_merchant_refund(call => $1::jsonb)`;
const MERCHANT_SETTLE_SQL = `SELECT ${ANSWER} FROM ledger_merchant_settle(call => $1::jsonb, pin_proof => $2::bytea)`;
const REFUND_SQL = `SELECT ${ANSWER} FROM ops_refund(refund_id => $1::uuid, approver => $2::uuid,
  movement_id => $3::uuid, rules => $4::jsonb, description => $5::jsonb, at => $6::timestamptz)`;

/** A payment as the door is asked it before the PIN: without its id, PIN and call. */
export type PaymentCheck = Omit<Payment, 'door' | 'id' | 'description' | 'payoutFee' | 'merchant'> & {
  description?: SidedText;
  /** Before the PIN a merchant's account and fee, without the fee's transfer. */
  merchant?: { account: string; fee: bigint; feeId?: string; feeDescription?: SidedText };
  /** Before the PIN only the fee's amount matters (the money must cover it too). */
  payoutFee?: { amount: bigint; id?: string; description?: SidedText };
};

/** The call's fields of a door's jsonb (payments.sql's prologue reads them): none for a check before the PIN. */
function callFields(confirmed: Confirmed | undefined): Record<string, unknown> {
  const call = confirmed?.call;
  if (!call) return { check: true };
  return call.key === null
    ? { call: call.name }
    : { call: call.name, key: call.key, request_hash: call.requestHash, answer: call.answer };
}

/** A door's call as its jsonb argument: bigint amounts as text, absent fields left out. */
function callJson(fields: Record<string, unknown>): string {
  return JSON.stringify(fields, (_, value) => (typeof value === 'bigint' ? value.toString() : value));
}

function payCall(payment: PaymentCheck & { id?: string }, confirmed?: Confirmed): string {
  if (payment.amount <= 0n || payment.amount > MAX_MINOR) throw new Error('ledger: amount out of range');
  if (!ID_PATTERN.test(payment.payer) || (payment.payee !== null && !ID_PATTERN.test(payment.payee)))
    throw new Error('ledger: a payment names its people by id');
  return callJson({
    id: payment.id,
    payer: payment.payer,
    payee: payment.payee,
    toward: payment.payee === null && !payment.merchant ? (payment.toward ?? 'payout_clearing') : undefined,
    merchant_account: payment.merchant?.account,
    fee: payment.merchant?.fee ?? payment.payoutFee?.amount,
    fee_id: payment.merchant?.feeId ?? payment.payoutFee?.id,
    fee_description: payment.merchant?.feeDescription ?? payment.payoutFee?.description,
    currency: payment.currency,
    amount: payment.amount,
    kind: payment.kind,
    reference_type: payment.reference?.type,
    reference_id: payment.reference?.id,
    description: payment.description,
    at: payment.at,
    ...callFields(confirmed),
  });
}

/** Runs a door: one statement, on its own or in the caller's transaction. Nothing is written unless 'created'. */
export async function openDoor(q: Queryable, door: Door, confirmed: Confirmed): Promise<DoorOutcome> {
  let row: DoorRow;
  switch (door.door) {
    case 'pay':
      row = await statement(q, PAY_SQL, [payCall(door, confirmed), door.rules, confirmed.pinProof]);
      break;
    case 'exchange':
      row = await statement(q, EXCHANGE_SQL, [
        callJson({
          id: door.outId,
          in_id: door.inId,
          payer: door.person,
          quote_id: door.quoteId,
          description: door.description,
          at: door.at,
          ...callFields(confirmed),
        }),
        door.rules,
        confirmed.pinProof,
      ]);
      break;
    case 'refund':
      row = await statement(q, REFUND_SQL, [
        door.refundId,
        door.approver,
        door.movementId,
        door.rules,
        JSON.stringify(door.description),
        door.at,
      ]);
      break;
    case 'goal':
      row = await statement(q, GOAL_SQL, [
        callJson({
          id: door.id,
          payer: door.person,
          goal_id: door.goalId,
          direction: door.direction,
          amount: door.amount,
          reference_type: door.reference?.type,
          reference_id: door.reference?.id,
          description: door.description,
          at: door.at,
          ...callFields(confirmed),
        }),
        confirmed.pinProof,
      ]);
      break;
    case 'merchantRefund':
      row = await statement(q, MERCHANT_REFUND_SQL, [
        callJson({
          id: door.id,
          merchant: door.merchant,
          payment_id: door.paymentId,
          amount: door.amount,
          description: door.description,
          at: door.at,
          ...callFields(confirmed),
        }),
      ]);
      break;
    case 'merchantSettle':
      row = await statement(q, MERCHANT_SETTLE_SQL, [
        callJson({
          id: door.id,
          person: door.person,
          merchant: door.merchant,
          amount: door.amount,
          reference_type: door.reference.type,
          reference_id: door.reference.id,
          description: door.description,
          at: door.at,
          ...callFields(confirmed),
        }),
        confirmed.pinProof,
      ]);
      break;
  }
  if (row.outcome === 'repeated')
    return { outcome: 'repeated', requestHash: row.first_request_hash ?? '', answer: row.first_answer };
  if (row.outcome === 'refused') return { outcome: 'refused', refusal: row.refusal! };
  return { outcome: 'created' };
}

/**
 * Every rule that would refuse this payment now, asked of the same door without the PIN and without
 * writing anything (the answers before the PIN); empty when it could go through.
 */
export async function paymentProblems(q: Queryable, payment: PaymentCheck): Promise<Refusal[]> {
  return (await statement(q, PAY_SQL, [payCall(payment), payment.rules, null])).problems ?? [];
}

/**
 * One statement. On its own it is a whole transaction, so one that a deadlock or a serialization
 * failure rolled back is run again (a person's rows and a payout clearing account can be locked in
 * another order by a settlement); in a transaction the caller's `tx` runs it again with the rest.
 */
async function statement(q: Queryable, sql: string, params: unknown[]): Promise<DoorRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await q.query<DoorRow>(sql, params);
      return rows[0]!;
    } catch (error) {
      const code = pgCode(error);
      const again = isDb(q) && (code === PG.deadlock || code === PG.serializationFailure) && attempt < 8;
      if (!again) throw error;
      await new Promise((resolve) => setTimeout(resolve, randomInt(Math.min(50, 2 ** attempt) + 1)));
    }
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
    'SELECT sent FROM limits_sent_in_month_total($1::uuid, $2::timestamptz)',
    [userId, at],
  );
  return rows[0]?.sent ? BigInt(rows[0].sent) : 0n;
}
