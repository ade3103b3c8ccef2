/**
 * The double-entry ledger: the only code that moves money (architecture.md 'Ledger').
 *
 * Model
 * - An account belongs to a user (one per currency) or is a system account of a currency
 *   (`SystemPurpose`: top-up clearing, payout clearing, external payments, fees, adjustments).
 * - Every movement is one immutable transfer: debit account -> credit account, amount (bigint minor
 *   units, > 0), one currency, a kind, a caller-made idempotency key (unique in the database) and an
 *   optional reference to the business object. Each transfer writes one entry per side and phase;
 *   an entry keeps the account's balances after it and the account's version.
 * - Posted balances of one currency always sum to exactly zero; system accounts may go negative,
 *   a user's available money (`balance - pendingDebits`) never does: a guarded UPDATE refuses it with
 *   INSUFFICIENT_FUNDS and a CHECK constraint backs it up, in the caller's transaction.
 * - Holds are two-phase transfers: `hold` takes the money out of the debit account's available
 *   balance at once (pending), then exactly one of `postHold` (the money moves) or `voidHold`
 *   (it returns) settles it. Repeating the same settlement is a no-op; the opposite one throws.
 * - Accounts of a transfer are locked in sorted id order (FOR NO KEY UPDATE), so concurrent
 *   transfers never deadlock; on PGlite (one session) transactions simply run one at a time.
 * - Money in and money out of user accounts create notifications in the same transaction.
 *
 * API (every function takes `q`, the caller's transaction: `ctx.db.tx(async (q) => ...)`)
 *   openAccount(q, userId, currency, at): Promise<Account>           throws ACCOUNT_EXISTS
 *   userAccount(q, userId, currency): Promise<Account | null>
 *   accountOf(q, userId, accountId): Promise<Account | null>         only the user's own account
 *   accountsOf(q, userId): Promise<Account[]>                         RUB, USD, EUR, IDR order
 *   systemAccount(q, currency, purpose): Promise<Account>
 *   balanceOf(q, accountId): Promise<Balance>
 *   lockAccounts(q, accountIds): Promise<Account[]>   lock before a limit check that must not race
 *   transfer(q, TransferInput): Promise<TransferResult>              posted at once
 *   hold(q, TransferInput): Promise<TransferResult>                  pending
 *   postHold(q, holdId, at): Promise<SettleResult>
 *   voidHold(q, holdId, at): Promise<SettleResult>
 *   findTransfer(q, id): Promise<Transfer | null>
 *   transferByKey(q, idempotencyKey): Promise<Transfer | null>
 *   transfersByReference(q, type, id): Promise<Transfer[]>
 *   outgoingSince(q, userId, since): Promise<bigint>   RUB withdrawals, transfers and payments
 *                                                       since `since`, pending holds included
 *   totalBalanceRub(q, userId): Promise<bigint>        RUB money the user has or is about to have
 * A repeated idempotency key returns the first transfer with `created: false` and moves nothing;
 * the same key with a different debit, credit, amount, currency or kind is IDEMPOTENCY_CONFLICT.
 */

import { randomUUID } from 'node:crypto';
import { type CurrencyCode, MAX_MINOR } from '@e-wallet/contract';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { type MoneyMovement, moneyMovementInsert } from '../modules/notifications/service.ts';

export const TRANSFER_KINDS = ['topup', 'withdrawal', 'transfer', 'payment', 'refund', 'fee'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export const SYSTEM_PURPOSES = [
  'topup_clearing',
  'payout_clearing',
  'external_payments',
  'fees',
  'adjustments',
] as const;
export type SystemPurpose = (typeof SYSTEM_PURPOSES)[number];

export type TransferStatus = 'pending' | 'posted' | 'voided';

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
  /** Made by the caller and kept for every retry; unique across the ledger (prefix it, e.g. `topup:<order>`). */
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
  idempotencyKey: string;
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
  idempotency_key: string;
  reference_type: string | null;
  reference_id: string | null;
  description: SidedText | null;
  created_at: Date;
  settled_at: Date | null;
}

const ACCOUNT_COLUMNS =
  'id, user_id, purpose, currency, balance, pending_debits, pending_credits, version, created_at';
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
    available: BigInt(row.balance) - BigInt(row.pending_debits),
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
    idempotencyKey: row.idempotency_key,
    reference:
      row.reference_type && row.reference_id ? { type: row.reference_type, id: row.reference_id } : null,
    description: row.description,
    createdAt: row.created_at,
    settledAt: row.settled_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  if (!UUID.test(accountId)) return null;
  const { rows } = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE id = $1 AND user_id = $2`,
    [accountId, userId],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function accountsOf(q: Queryable, userId: string): Promise<Account[]> {
  const { rows } = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  const rank = (c: string) =>
    CURRENCY_ORDER.includes(c) ? CURRENCY_ORDER.indexOf(c) : CURRENCY_ORDER.length;
  return rows.map(toAccount).sort((a, b) => rank(a.currency) - rank(b.currency));
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
       ON CONFLICT (purpose, currency) WHERE user_id IS NULL DO NOTHING`,
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

const LOCK_SQL = `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`;
// The same lock, also telling whether the idempotency key is taken (as of the statement's start: a key
// committed while this waited for the locks is caught by the transfer insert's ON CONFLICT).
const LOCK_KEY_SQL = `SELECT ${ACCOUNT_COLUMNS},
  EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = $2) AS repeated
FROM ledger_accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE OF ledger_accounts`;

/**
 * Locks the accounts in sorted id order, the one order every transaction uses, so none deadlock: one
 * statement, rows locked as the ORDER BY returns them (LockRows sits above the sort). Ids compare as
 * lowercase hex in both JavaScript and PostgreSQL's uuid order.
 */
async function lockRows(
  q: Queryable,
  ids: string[],
  idempotencyKey?: string,
): Promise<{ locked: Map<string, AccountRow>; missing: string | null; repeated: boolean }> {
  const sorted = [...new Set(ids)].sort();
  const { rows } = await q.query<AccountRow & { repeated?: boolean }>(
    idempotencyKey === undefined ? LOCK_SQL : LOCK_KEY_SQL,
    idempotencyKey === undefined ? [sorted] : [sorted, idempotencyKey],
  );
  const locked = new Map<string, AccountRow>();
  for (const row of rows) locked.set(row.id, row);
  return {
    locked,
    missing: sorted.find((id) => !locked.has(id)) ?? null,
    repeated: rows.some((row) => row.repeated === true),
  };
}

async function lockOrThrow(q: Queryable, ids: string[]): Promise<Map<string, AccountRow>> {
  const { locked, missing } = await lockRows(q, ids);
  if (missing) throw new LedgerError('account not found', missing);
  return locked;
}

/**
 * Locks accounts (sorted by id, as every ledger call does) for the rest of the caller's transaction.
 * A limit check that must not race (monthly outgoing, balance cap) locks the accounts of the coming
 * transfer first, reads, then calls `transfer`/`hold`, which re-lock them at no cost.
 */
export async function lockAccounts(q: Queryable, ids: string[]): Promise<Account[]> {
  return [...(await lockOrThrow(q, ids)).values()].map(toAccount);
}

export async function transferByKey(q: Queryable, idempotencyKey: string): Promise<Transfer | null> {
  const { rows } = await q.query<TransferRow>('SELECT * FROM ledger_transfers WHERE idempotency_key = $1', [
    idempotencyKey,
  ]);
  return rows[0] ? toTransfer(rows[0]) : null;
}

export async function findTransfer(q: Queryable, id: string): Promise<Transfer | null> {
  if (!UUID.test(id)) return null;
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

interface EntryChange {
  account: AccountRow;
  phase: 'single' | 'hold' | 'post' | 'void';
  /** Signed amount from the account's view. */
  amount: bigint;
  balance: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
}

/**
 * Writes one movement under the accounts' locks in one statement (one round trip): `transferSql`, a
 * data-modifying statement returning the transfer row (its insert, or a hold's settlement), then a
 * guarded UPDATE of both accounts and one entry per side (debit side first) with the balances after
 * it, and the movement's notifications. When `transferSql` returns no row (a key already used) nothing
 * else is written and the answer is null. A side the guard refuses is INSUFFICIENT_FUNDS (the caller's transaction is then aborted).
 */
async function writeMovement(
  q: Queryable,
  transferSql: string,
  transferParams: unknown[],
  changes: EntryChange[],
  at: Date,
  notice: MoneyMovement,
): Promise<Transfer | null> {
  const params: unknown[] = [...transferParams, at];
  const atParam = params.length;
  const values = changes.map((change, index) => {
    const base = params.length;
    params.push(
      change.account.id,
      change.balance,
      change.pendingDebits,
      change.pendingCredits,
      change.phase,
      change.amount,
      index,
    );
    return `($${base + 1}::uuid, $${base + 2}::bigint, $${base + 3}::bigint, $${base + 4}::bigint, $${base + 5}::text, $${base + 6}::bigint, $${base + 7}::int)`;
  });
  // The movement's notifications, written only when the transfer row is.
  const notes = moneyMovementInsert(notice, params.length + 1, 'EXISTS (SELECT 1 FROM t)');
  if (notes) params.push(...notes.params);
  const { rows } = await q.query<TransferRow & { entry_count: number }>(
    `WITH t AS (${transferSql}),${notes ? `\n     n AS (${notes.sql}),` : ''}
     v (id, d_balance, d_pending_debits, d_pending_credits, phase, amount, ord) AS (VALUES ${values.join(', ')}),
     u AS (
       UPDATE ledger_accounts a
       SET balance = a.balance + v.d_balance, pending_debits = a.pending_debits + v.d_pending_debits,
           pending_credits = a.pending_credits + v.d_pending_credits, version = a.version + 1
       FROM v
       WHERE a.id = v.id AND EXISTS (SELECT 1 FROM t)
         AND (a.user_id IS NULL OR a.balance + v.d_balance - (a.pending_debits + v.d_pending_debits) >= 0)
       RETURNING a.id, a.user_id, a.balance, a.pending_debits, a.pending_credits, a.version, v.phase, v.amount, v.ord
     ),
     e AS (
       INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
         pending_debits_after, pending_credits_after, account_version, created_at, opened_at)
       SELECT t.id, u.id, u.user_id, u.phase, u.amount, t.currency, t.kind, u.balance, u.pending_debits,
         u.pending_credits, u.version, $${atParam}::timestamptz, t.created_at
       FROM u CROSS JOIN t ORDER BY u.ord
       RETURNING 1
     )
     SELECT t.*, (SELECT count(*) FROM e)::int AS entry_count FROM t`,
    params,
  );
  const row = rows[0];
  if (!row) return null;
  if (Number(row.entry_count) !== changes.length) throw new AppError('INSUFFICIENT_FUNDS');
  return toTransfer(row);
}

async function open(q: Queryable, input: TransferInput, isHold: boolean): Promise<TransferResult> {
  if (typeof input.amount !== 'bigint' || input.amount <= 0n || input.amount > MAX_MINOR)
    throw new LedgerError('amount must be a positive bigint within MAX_MINOR');
  if (input.debit === input.credit) throw new LedgerError('debit and credit are the same account');
  if (!(TRANSFER_KINDS as readonly string[]).includes(input.kind))
    throw new LedgerError('unknown kind', input.kind);
  if (!input.idempotencyKey) throw new LedgerError('idempotency key is required');

  const repeat = async (): Promise<TransferResult | null> => {
    const first = await transferByKey(q, input.idempotencyKey);
    if (!first) return null;
    if (!sameRequest(first, input, isHold)) throw new AppError('IDEMPOTENCY_CONFLICT');
    return { transfer: first, created: false };
  };
  // One statement locks both accounts and tells whether the key is already used; a repeat is rare,
  // so only then is the first transfer read. A refusal before the insert looks the key up again
  // first: a call with the same key may have committed while this one waited for the locks.
  const { locked, missing, repeated } = await lockRows(q, [input.debit, input.credit], input.idempotencyKey);
  const refuse = async (error: Error): Promise<TransferResult> => {
    const raced = await repeat();
    if (raced) return raced;
    throw error;
  };
  if (repeated) {
    const first = await repeat();
    if (first) return first;
  }
  if (missing) return refuse(new LedgerError('account not found', missing));

  const debit = locked.get(input.debit)!;
  const credit = locked.get(input.credit)!;
  if (debit.currency !== input.currency || credit.currency !== input.currency)
    return refuse(
      new LedgerError('currency mismatch', `${debit.currency}/${credit.currency}/${input.currency}`),
    );
  // Checked before anything is written, so a caller may catch INSUFFICIENT_FUNDS and carry on.
  if (debit.user_id !== null && BigInt(debit.balance) - BigInt(debit.pending_debits) < input.amount)
    return refuse(new AppError('INSUFFICIENT_FUNDS'));

  const amount = input.amount;
  const phase = isHold ? 'hold' : 'single';
  const transfer = await writeMovement(
    q,
    `INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status, is_hold,
       idempotency_key, reference_type, reference_id, description, created_at, settled_at)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4::bigint, $5::text, $6::text, $7::text, $8::boolean, $9::text, $10::text,
       $11::text, $12::jsonb, $13::timestamptz, $14::timestamptz)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING *`,
    [
      randomUUID(),
      input.debit,
      input.credit,
      amount,
      input.currency,
      input.kind,
      isHold ? 'pending' : 'posted',
      isHold,
      input.idempotencyKey,
      input.reference?.type ?? null,
      input.reference?.id ?? null,
      sided(input.description),
      input.at,
      isHold ? null : input.at,
    ],
    [
      {
        account: debit,
        phase,
        amount: -amount,
        balance: isHold ? 0n : -amount,
        pendingDebits: isHold ? amount : 0n,
        pendingCredits: 0n,
      },
      {
        account: credit,
        phase,
        amount,
        balance: isHold ? 0n : amount,
        pendingDebits: 0n,
        pendingCredits: isHold ? amount : 0n,
      },
    ],
    input.at,
    // A hold takes the money out of the debit side now; the credit side hears of it when it is posted.
    {
      transfer: input,
      debitUserId: debit.user_id,
      creditUserId: isHold ? null : credit.user_id,
      at: input.at,
    },
  );
  if (!transfer) {
    // The same key was committed by another call after this one's lock statement began.
    const raced = await repeat();
    if (raced) return raced;
    throw new LedgerError('idempotency key race');
  }
  return { transfer, created: true };
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
  const current = await findTransfer(q, holdId);
  if (!current?.isHold) throw new LedgerError('hold not found', holdId);
  const locked = await lockOrThrow(q, [current.debitAccountId, current.creditAccountId]);
  // Under the account locks no other settlement of this hold can run; read its status again.
  const { rows } = await q.query<TransferRow>('SELECT * FROM ledger_transfers WHERE id = $1 FOR UPDATE', [
    holdId,
  ]);
  const hold = toTransfer(rows[0]!);
  if (hold.status === outcome) return { transfer: hold, changed: false };
  if (hold.status !== 'pending') throw new LedgerError(`hold already ${hold.status}`, holdId);

  const amount = hold.amount;
  const debit = locked.get(hold.debitAccountId)!;
  const credit = locked.get(hold.creditAccountId)!;
  const phase = outcome === 'posted' ? 'post' : 'void';
  const moves = outcome === 'posted' ? amount : 0n;
  const settled = await writeMovement(
    q,
    `UPDATE ledger_transfers SET status = $2::text, settled_at = $3::timestamptz
     WHERE id = $1::uuid AND status = 'pending' RETURNING *`,
    [holdId, outcome, at],
    [
      { account: debit, phase, amount: -amount, balance: -moves, pendingDebits: -amount, pendingCredits: 0n },
      { account: credit, phase, amount, balance: moves, pendingDebits: 0n, pendingCredits: -amount },
    ],
    at,
    outcome === 'posted'
      ? { transfer: hold, debitUserId: null, creditUserId: credit.user_id, at }
      : { transfer: hold, debitUserId: null, creditUserId: null, returnedToUserId: debit.user_id, at },
  );
  if (!settled) throw new LedgerError('hold not pending', holdId);
  return { transfer: settled, changed: true };
}

/** Settles a hold: the held money moves to the credit account. Posting twice moves it once. */
export function postHold(q: Queryable, holdId: string, at: Date): Promise<SettleResult> {
  return settle(q, holdId, 'posted', at);
}

/** Releases a hold: the held money returns to the debit account's available balance, exactly once. */
export function voidHold(q: Queryable, holdId: string, at: Date): Promise<SettleResult> {
  return settle(q, holdId, 'voided', at);
}

// ---------- limits ----------

/**
 * RUB-equivalent money that left the user since `since` (monthly limits): withdrawals, transfers and
 * payments out of the user's RUB account, pending holds included, released holds not. Only RUB can
 * leave a wallet today, so no conversion is needed.
 */
export async function outgoingSince(q: Queryable, userId: string, since: Date): Promise<bigint> {
  // Debits opened since `since` (posted or pending) less those released: no join, one index range.
  const { rows } = await q.query<{ total: bigint | null }>(
    `SELECT sum(CASE WHEN phase = 'void' THEN amount ELSE -amount END)::bigint AS total
     FROM ledger_entries
     WHERE user_id = $1 AND amount < 0 AND phase IN ('single', 'hold', 'void') AND opened_at >= $2
       AND currency = 'RUB' AND kind IN ('withdrawal', 'transfer', 'payment')`,
    [userId, since],
  );
  return rows[0]?.total ? BigInt(rows[0].total) : 0n;
}

/**
 * The user's RUB money for the balance limit: posted balance plus money on its way in (pending credits).
 * Held money still counts until its hold is posted. Other currencies cannot be topped up today.
 */
export async function totalBalanceRub(q: Queryable, userId: string): Promise<bigint> {
  const { rows } = await q.query<{ total: bigint | null }>(
    `SELECT (balance + pending_credits)::bigint AS total FROM ledger_accounts WHERE user_id = $1 AND currency = 'RUB'`,
    [userId],
  );
  return rows[0]?.total ? BigInt(rows[0].total) : 0n;
}
