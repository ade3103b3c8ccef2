/**
 * The double-entry ledger: the only door to money (docs/architecture.md 'Ledger').
 *
 * Model
 * - An account belongs to a user (one per currency) or is a system account of a currency
 *   (`SystemPurpose`: top-up clearing, payout clearing, external payments, fees, adjustments).
 * - Every movement is one immutable transfer: debit account -> credit account, amount (bigint minor
 *   units, > 0), one currency, a kind and an optional reference to the business object. A transfer
 *   opened here takes its id from the caller's idempotency key (ledger_key_id), so its primary key
 *   answers a repeat. Each transfer writes one entry per side and phase;
 *   an entry keeps the account's balances after it and the account's version.
 * - Posted balances of one currency always sum to exactly zero; system accounts may go negative,
 *   a user's available money (`balance - pendingDebits`) never does.
 * - Holds are two-phase transfers: `hold` takes the money out of the debit account's available
 *   balance at once (pending), then exactly one of `postHold` (the money moves) or `voidHold`
 *   (it returns) settles it. Repeating the same settlement is a no-op; the opposite one throws.
 * - Each door is one SQL function (db/functions/ledger.sql, payments.sql) and one round trip; all of
 *   them write through one SQL helper, `ledger_move`. Money in and out of user accounts are
 *   notifications read from the entries (modules/notifications).
 *
 * Doors (each takes `q`: the caller's transaction, `ctx.db.tx(async (q) => ...)`, or the database
 * itself, where the door is its own atomic statement)
 *   transfer(q, TransferInput): Promise<TransferResult>     posted at once, between any two accounts
 *   hold(q, TransferInput): Promise<TransferResult>         pending
 *   postHold(q, holdId, at), voidHold(q, holdId, at): Promise<SettleResult>
 *   openDoor(q, Door, Confirmed): Promise<DoorOutcome>      a money call: a person's payment or exchange,
 *                                                           an operator's refund (doors.ts), run only by
 *                                                           the money-call pipeline (modules/money-calls)
 * Questions
 *   paymentProblems(q, PaymentCheck)                        what would refuse a payment now (doors.ts)
 *   topUpRefusal(q, config, userId, currency, amount, at)   may a top-up of this amount start (doors.ts)
 *   sentThisMonth(q, userId, at)                            the monthly limit's figure (doors.ts)
 *   openAccount, userAccount, accountOf, accountsOf, systemAccount, balanceOf, findTransfer,
 *   transfersByReference
 * A repeated idempotency key returns the first transfer with `created: false` and moves nothing;
 * the same key with a different debit, credit, amount, currency or kind is IDEMPOTENCY_CONFLICT.
 */

import { type CurrencyCode, ID_PATTERN, MAX_MINOR } from '@e-wallet/contract';
import { v7 as uuidv7 } from 'uuid';
import { batchedRead } from '../db/batch.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';

export const TRANSFER_KINDS = [
  'topup',
  'withdrawal',
  'transfer',
  'payment',
  'refund',
  'fee',
  'exchange',
  'savings',
] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export const SYSTEM_PURPOSES = [
  'topup_clearing',
  'payout_clearing',
  'external_payments',
  'fees',
  'adjustments',
  'exchange',
  'antifraud_hold',
] as const;
export type SystemPurpose = (typeof SYSTEM_PURPOSES)[number];

export type TransferStatus = 'pending' | 'posted' | 'voided';
/** An entry's phase: a plain transfer ('single'), a hold opened, then posted or voided. */
export type EntryPhase = 'single' | 'hold' | 'post' | 'void';

/** A text in both languages of the app; the reader's language picks one at read time. */
export interface LocalText {
  ru: string;
  en: string;
}
/** What each side of a transfer reads in its history. */
export interface SidedText {
  debit: LocalText;
  credit: LocalText;
}

export interface Account {
  id: string;
  userId: string | null;
  purpose: 'user' | SystemPurpose;
  currency: CurrencyCode;
  /** Posted money. */
  balance: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
  /** What the owner can spend and sees: posted money less what holds have taken out. */
  available: bigint;
  version: bigint;
  createdAt: Date;
}
export type Balance = Pick<Account, 'balance' | 'pendingDebits' | 'pendingCredits' | 'available' | 'version'>;

export interface TransferInput {
  debit: string;
  credit: string;
  amount: bigint;
  currency: CurrencyCode;
  kind: TransferKind;
  /**
   * Made by the caller and kept for every retry; unique across the ledger (prefix it, e.g.
   * `topup:<order>`): the transfer's id is made of it, so the key itself is not stored.
   */
  idempotencyKey: string;
  reference?: { type: string; id: string } | null;
  /** One text for both sides, or one per side; without it the history describes the kind. */
  description?: LocalText | SidedText | null;
  /** The time of the movement: `ctx.clock.now()`. */
  at: Date;
}

export interface Transfer {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  currency: CurrencyCode;
  kind: TransferKind;
  status: TransferStatus;
  isHold: boolean;
  reference: { type: string; id: string } | null;
  description: SidedText | null;
  createdAt: Date;
  settledAt: Date | null;
}

export interface TransferResult {
  transfer: Transfer;
  /** False when the idempotency key was already used: the first transfer, nothing moved. */
  created: boolean;
}
export interface SettleResult {
  transfer: Transfer;
  /** False when the hold was already settled this way: nothing moved. */
  changed: boolean;
}

/** A broken rule of the ledger's callers (a programming error, never a user's mistake): answers 500. */
export class LedgerError extends Error {
  readonly reason: string;
  constructor(reason: string, detail = '') {
    super(`ledger: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'LedgerError';
    this.reason = reason;
  }
}

interface AccountRow {
  id: string;
  user_id: string | null;
  purpose: Account['purpose'];
  currency: CurrencyCode;
  balance: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  available: bigint;
  version: bigint;
  created_at: Date;
}
interface TransferRow {
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount: bigint;
  currency: CurrencyCode;
  kind: TransferKind;
  status: TransferStatus;
  is_hold: boolean;
  reference_type: string | null;
  reference_id: string | null;
  description: SidedText | null;
  created_at: Date;
  settled_at: Date | null;
}

// `available` as ledger.sql defines it (ledger_available), asked of the row rather than worked out here.
const ACCOUNT_COLUMNS =
  'id, user_id, purpose, currency, balance, pending_debits, pending_credits, ledger_available(ledger_accounts) AS available, version, created_at';
const CURRENCY_ORDER = ['RUB', 'USD', 'EUR', 'IDR'];

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    userId: row.user_id,
    purpose: row.purpose,
    currency: row.currency,
    balance: BigInt(row.balance),
    pendingDebits: BigInt(row.pending_debits),
    pendingCredits: BigInt(row.pending_credits),
    available: BigInt(row.available),
    version: BigInt(row.version),
    createdAt: row.created_at,
  };
}

function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    debitAccountId: row.debit_account_id,
    creditAccountId: row.credit_account_id,
    amount: BigInt(row.amount),
    currency: row.currency,
    kind: row.kind,
    status: row.status,
    isHold: row.is_hold,
    reference:
      row.reference_type && row.reference_id ? { type: row.reference_type, id: row.reference_id } : null,
    description: row.description,
    createdAt: row.created_at,
    settledAt: row.settled_at,
  };
}

// ---------- accounts ----------

/** Opens the user's account in a currency; a second one in the same currency is ACCOUNT_EXISTS. */
export async function openAccount(
  q: Queryable,
  userId: string,
  currency: CurrencyCode,
  at: Date,
): Promise<Account> {
  const { rows } = await q.query<AccountRow>(
    `INSERT INTO ledger_accounts (user_id, purpose, currency, created_at) VALUES ($1, 'user', $2, $3)
     ON CONFLICT (user_id, currency) WHERE user_id IS NOT NULL DO NOTHING
     RETURNING ${ACCOUNT_COLUMNS}`,
    [userId, currency, at],
  );
  if (!rows[0]) throw new AppError('ACCOUNT_EXISTS');
  return toAccount(rows[0]);
}

/**
 * A merchant's rouble account (docs/decisions/merchants.md#merchants): user-less, its owner named by the
 * merchant's row; answers its id.
 */
export async function openMerchantAccount(q: Queryable, at: Date): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO ledger_accounts (purpose, currency, created_at) VALUES ('merchant', 'RUB', $1) RETURNING id`,
    [at],
  );
  return rows[0]!.id;
}

export async function userAccount(
  q: Queryable,
  userId: string,
  currency: CurrencyCode,
): Promise<Account | null> {
  const { rows } = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE user_id = $1 AND currency = $2`,
    [userId, currency],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

/** The user's own account with this id; another user's account is as absent as a missing one. */
export async function accountOf(q: Queryable, userId: string, accountId: string): Promise<Account | null> {
  if (!ID_PATTERN.test(accountId)) return null;
  const { rows } = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE id = $1 AND user_id = $2`,
    [accountId, userId],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

/**
 * What a list of a user's accounts shows of each: its available money and its opening time, the
 * time already written by PostgreSQL as the wire's ISO-8601 (UTC, milliseconds, as toISOString).
 */
export interface AccountSummary {
  id: string;
  currency: CurrencyCode;
  available: bigint;
  createdAt: string;
}

/**
 * Every account of each user asked for, one query for all (batched across concurrent requests),
 * in the order the wallet shows them. Only the columns shown, and the time as text, written by
 * PostgreSQL (cheaper than a Date parsed and written out again; docs/performance.md#the-account-list-as-it-is-shown).
 */
const SUMMARIES_SQL = `SELECT id, user_id AS "userId", currency, ledger_available(a) AS available,
         to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
  FROM ledger_accounts a WHERE user_id = ANY($1::uuid[])
  ORDER BY array_position(ARRAY[${CURRENCY_ORDER.map((c) => `'${c}'`).join(', ')}], currency), created_at, id`;

const summariesByUser = batchedRead<string, AccountSummary[]>(async (q, userIds) => {
  const { rows } = await q.query<AccountSummary & { userId: string }>(SUMMARIES_SQL, [userIds]);
  const byUser = new Map<string, AccountSummary[]>();
  for (const row of rows) {
    const list = byUser.get(row.userId);
    if (list) list.push(row);
    else byUser.set(row.userId, [row]);
  }
  return byUser;
});

/** The user's accounts: RUB, USD, EUR, IDR, then any other currency, each in opening order. */
export async function accountsOf(q: Queryable, userId: string): Promise<AccountSummary[]> {
  return ID_PATTERN.test(userId) ? ((await summariesByUser(q, userId)) ?? []) : [];
}

/** The system account of a currency for a purpose (created on first use for currencies not seeded). */
export async function systemAccount(
  q: Queryable,
  currency: CurrencyCode,
  purpose: SystemPurpose,
): Promise<Account> {
  const find = () =>
    q.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE user_id IS NULL AND purpose = $1 AND currency = $2`,
      [purpose, currency],
    );
  let { rows } = await find();
  if (!rows[0]) {
    await q.query(
      `INSERT INTO ledger_accounts (purpose, currency, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (purpose, currency) WHERE user_id IS NULL AND purpose <> 'goal' AND purpose <> 'merchant'
       DO NOTHING`,
      [purpose, currency, new Date(0)],
    );
    ({ rows } = await find());
  }
  return toAccount(rows[0]!);
}

export async function balanceOf(q: Queryable, accountId: string): Promise<Balance> {
  const { rows } = await q.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE id = $1`, [
    accountId,
  ]);
  if (!rows[0]) throw new LedgerError('account not found', accountId);
  const { balance, pendingDebits, pendingCredits, available, version } = toAccount(rows[0]);
  return { balance, pendingDebits, pendingCredits, available, version };
}

// ---------- transfers ----------

/**
 * A new transfer's id, made by its caller before the door: time-ordered (UUIDv7), so the transfers'
 * primary key grows at its right edge rather than writing a random page per payment
 * (docs/performance.md#what-each-change-gained).
 */
export function newTransferId(): string {
  return uuidv7();
}

export async function findTransfer(q: Queryable, id: string): Promise<Transfer | null> {
  if (!ID_PATTERN.test(id)) return null;
  const { rows } = await q.query<TransferRow>('SELECT * FROM ledger_transfers WHERE id = $1', [id]);
  return rows[0] ? toTransfer(rows[0]) : null;
}

export async function transfersByReference(q: Queryable, type: string, id: string): Promise<Transfer[]> {
  const { rows } = await q.query<TransferRow>(
    `SELECT * FROM ledger_transfers WHERE reference_type = $1 AND reference_id = $2 ORDER BY created_at, id`,
    [type, id],
  );
  return rows.map(toTransfer);
}

function sameRequest(first: Transfer, input: TransferInput, isHold: boolean): boolean {
  return (
    first.debitAccountId === input.debit &&
    first.creditAccountId === input.credit &&
    first.amount === input.amount &&
    first.currency === input.currency &&
    first.kind === input.kind &&
    first.isHold === isHold
  );
}

function sided(description: TransferInput['description']): SidedText | null {
  if (!description) return null;
  return 'debit' in description ? description : { debit: description, credit: description };
}

const OPEN_SQL = `SELECT outcome, (moved).* FROM ledger_open(debit => $1::uuid, credit => $2::uuid,
  amount => $3::bigint, currency => $4::text, kind => $5::text, hold => $6::boolean, idempotency_key => $7::text,
  reference_type => $8::text, reference_id => $9::text, description => $10::jsonb, at => $11::timestamptz)`;
const SETTLE_SQL = `SELECT outcome, (moved).* FROM ledger_settle($1::uuid, $2::text, $3::timestamptz)`;

/**
 * Opens a transfer or a hold in one statement (`ledger_open`): both accounts locked in the one lock
 * order (docs/decisions/money-calls.md#the-money-core), the available balance checked, then the movement (a
 * used idempotency key writes nothing and answers its first transfer, before any refusal). Nothing is written
 * unless the outcome is 'created', so a caller may catch INSUFFICIENT_FUNDS and carry on.
 */
async function open(q: Queryable, input: TransferInput, isHold: boolean): Promise<TransferResult> {
  if (typeof input.amount !== 'bigint' || input.amount <= 0n || input.amount > MAX_MINOR)
    throw new LedgerError('amount must be a positive bigint within MAX_MINOR');
  if (input.debit === input.credit) throw new LedgerError('debit and credit are the same account');
  if (!(TRANSFER_KINDS as readonly string[]).includes(input.kind))
    throw new LedgerError('unknown kind', input.kind);
  if (!input.idempotencyKey) throw new LedgerError('idempotency key is required');
  if (!ID_PATTERN.test(input.debit) || !ID_PATTERN.test(input.credit))
    throw new LedgerError('account not found', ID_PATTERN.test(input.debit) ? input.credit : input.debit);

  const { rows } = await q.query<TransferRow & { outcome: string }>(OPEN_SQL, [
    input.debit,
    input.credit,
    input.amount,
    input.currency,
    input.kind,
    isHold,
    input.idempotencyKey,
    input.reference?.type ?? null,
    input.reference?.id ?? null,
    sided(input.description),
    input.at,
  ]);
  const row = rows[0]!;
  switch (row.outcome) {
    case 'created':
      // Answered by its outcome alone: the transfer is what this call wrote.
      return {
        transfer: {
          id: row.id,
          debitAccountId: input.debit,
          creditAccountId: input.credit,
          amount: input.amount,
          currency: input.currency,
          kind: input.kind,
          status: isHold ? 'pending' : 'posted',
          isHold,
          reference: input.reference ? { type: input.reference.type, id: input.reference.id } : null,
          description: sided(input.description),
          createdAt: new Date(input.at),
          settledAt: isHold ? null : new Date(input.at),
        },
        created: true,
      };
    case 'repeated': {
      const first = toTransfer(row);
      if (!sameRequest(first, input, isHold)) throw new AppError('IDEMPOTENCY_CONFLICT');
      return { transfer: first, created: false };
    }
    case 'insufficient':
      throw new AppError('INSUFFICIENT_FUNDS');
    case 'currency':
      throw new LedgerError('currency mismatch', `${input.debit}/${input.credit}/${input.currency}`);
    default:
      throw new LedgerError('account not found', `${input.debit}/${input.credit}`);
  }
}

/** Moves money at once (posted). */
export function transfer(q: Queryable, input: TransferInput): Promise<TransferResult> {
  return open(q, input, false);
}

/** Takes money out of the debit account's available balance now; settle it with postHold or voidHold. */
export function hold(q: Queryable, input: TransferInput): Promise<TransferResult> {
  return open(q, input, true);
}

async function settle(
  q: Queryable,
  holdId: string,
  outcome: 'posted' | 'voided',
  at: Date,
): Promise<SettleResult> {
  const current = ID_PATTERN.test(holdId) ? await findTransfer(q, holdId) : null;
  if (!current?.isHold) throw new LedgerError('hold not found', holdId);
  const { rows } = await q.query<TransferRow & { outcome: string }>(SETTLE_SQL, [holdId, outcome, at]);
  const row = rows[0]!;
  switch (row.outcome) {
    case 'changed':
      return { transfer: toTransfer(row), changed: true };
    case 'unchanged':
      return { transfer: toTransfer(row), changed: false };
    case 'settled':
      throw new LedgerError(`hold already ${row.status}`, holdId);
    default:
      throw new LedgerError('hold not found', holdId);
  }
}

/** Settles a hold: the held money moves to the credit account. Posting twice moves it once. */
export function postHold(q: Queryable, holdId: string, at: Date): Promise<SettleResult> {
  return settle(q, holdId, 'posted', at);
}

/** Releases a hold: the held money returns to the debit account's available balance, exactly once. */
export function voidHold(q: Queryable, holdId: string, at: Date): Promise<SettleResult> {
  return settle(q, holdId, 'voided', at);
}

export * from './doors.ts';
