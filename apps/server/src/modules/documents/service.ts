/**
 * Documents of the signed-in user's money: the receipt of any operation (JSON or PDF), statements of
 * an account over a period (CSV or PDF, streamed in batches) and the public page that confirms a
 * receipt by its signed code. Reads the ledger's tables only (sql.ts). Another user's operation or
 * account answers exactly as a missing one does.
 */
import {
  type AnswerOf,
  type CurrencyCode,
  displayText,
  formatAmount,
  type Language,
  type QueryOut,
} from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { OpaqueIds } from '../../http/opaque-id.ts';
import type { SidedText, TransferKind, TransferStatus } from '../../ledger/index.ts';
import { maskedName } from '../../policy/names.ts';
import { merchantAccountOfUser } from '../merchants/index.ts';
import { KIND_TEXTS, ownAccount, rangeOf } from '../wallet/index.ts';
import {
  BALANCE_BEFORE_SQL,
  MERCHANT_BALANCE_BEFORE_SQL,
  MERCHANT_PERIOD_SQL,
  PERIOD_FIGURES_SQL,
  PERIOD_SQL,
  RECEIPT_SQL,
  STATEMENT_BATCH_SQL,
  TRANSFER_OF_ENTRY_SQL,
  TRANSFER_OF_ID_SQL,
} from './sql.ts';
import { receiptCode, type Side } from './verify-code.ts';

export type DocumentReceipt = AnswerOf<'documentReceipt'>;

/** Everything a receipt says, before it is written for the owner (JSON, PDF) or the public page. */
export interface ReceiptFacts {
  transferId: string;
  kind: TransferKind;
  side: Side;
  status: DocumentReceipt['status'];
  /** Signed minor units: negative for money out. */
  amount: bigint;
  currency: CurrencyCode;
  createdAt: Date;
  description: string;
  accountId: string;
  availableAfter: bigint;
  /** The owner of this side, masked. */
  ownName: string;
  /** The other side as the owner may read it: a masked name, a masked card, a payee; null for none. */
  counterparty: string | null;
  /** What the wallet charged on top (an СБП transfer's fee), in minor units. */
  fee: bigint;
}

interface ReceiptRow {
  id: string;
  kind: TransferKind;
  status: TransferStatus;
  currency: CurrencyCode;
  created_at: Date;
  description: SidedText | null;
  account_id: string;
  amount: bigint;
  available_after: bigint;
  own_first_name: string;
  own_last_name: string;
  other_first_name: string | null;
  other_last_name: string | null;
  payout_purpose: 'withdrawal' | 'payment' | null;
  payout_destination: string | null;
  payout_payee: string | null;
  /** A payout's fee (docs/decisions/sbp.md#fees), held and settled beside it; 0 for anything else. */
  fee: bigint;
}

const STATUS: Record<TransferStatus, DocumentReceipt['status']> = {
  pending: 'pending',
  posted: 'complete',
  voided: 'failed',
};

export function describeEntry(
  kind: TransferKind,
  amount: bigint,
  description: SidedText | null,
  language: Language,
): string {
  const side: Side = amount < 0n ? 'debit' : 'credit';
  // A payee's name inside comes from elsewhere (a QR code): printed without controls or overrides.
  return displayText((description?.[side] ?? KIND_TEXTS[kind][side])[language]);
}

function factsOf(row: ReceiptRow, language: Language): ReceiptFacts {
  const side: Side = row.amount < 0n ? 'debit' : 'credit';
  let counterparty: string | null = null;
  // A person's name in Latin letters on an English receipt (docs/decisions/language-and-format.md#names-on-english-screens).
  if (row.other_first_name !== null)
    counterparty = nameIn(maskedName(row.other_first_name, row.other_last_name ?? ''), language);
  else if (row.payout_purpose === 'withdrawal') counterparty = row.payout_destination;
  else if (row.payout_purpose === 'payment') counterparty = row.payout_payee ?? row.payout_destination;
  if (counterparty !== null) counterparty = displayText(counterparty);
  return {
    transferId: row.id,
    kind: row.kind,
    side,
    status: STATUS[row.status],
    amount: BigInt(row.amount),
    currency: row.currency,
    createdAt: row.created_at,
    description: describeEntry(row.kind, BigInt(row.amount), row.description, language),
    accountId: row.account_id,
    availableAfter: BigInt(row.available_after),
    ownName: nameIn(maskedName(row.own_first_name, row.own_last_name), language),
    counterparty,
    fee: BigInt(row.fee),
  };
}

/**
 * The facts of an operation of the user's, by any id the app shows for it: the history's (a
 * transfer's), a money notification's (an entry's opaque id), or a money call's receipt (a transfer,
 * a payout, a top-up order).
 */
export async function ownReceiptFacts(
  q: Queryable,
  userId: string,
  id: string,
  language: Language,
  ids: OpaqueIds,
): Promise<ReceiptFacts> {
  let candidates: string[];
  const entryId = ids.entryIdOf(id);
  if (entryId !== null) {
    const { rows } = await q.query<{ transfer_id: string }>(TRANSFER_OF_ENTRY_SQL, [userId, entryId]);
    candidates = rows.map((row) => row.transfer_id);
  } else {
    const { rows } = await q.query<{ transfer_id: string }>(TRANSFER_OF_ID_SQL, [userId, id]);
    candidates = rows.map((row) => row.transfer_id);
  }
  for (const transferId of candidates) {
    const { rows } = await q.query<ReceiptRow>(RECEIPT_SQL, [userId, transferId, 0]);
    if (rows[0]) return factsOf(rows[0], language);
  }
  throw new AppError('OPERATION_NOT_FOUND');
}

/** The facts a verify code names, or null: the code names a side that belongs to a user. */
export async function verifiedReceiptFacts(
  q: Queryable,
  transferId: string,
  side: Side,
  language: Language,
): Promise<ReceiptFacts | null> {
  const { rows } = await q.query<ReceiptRow>(RECEIPT_SQL, [null, transferId, side === 'debit' ? -1 : 1]);
  return rows[0] ? factsOf(rows[0], language) : null;
}

export function verifyUrl(ctx: Pick<AppContext, 'config'>, facts: ReceiptFacts): string {
  return `${ctx.config.PUBLIC_URL}/verify/${receiptCode(ctx.config, facts.transferId, facts.side)}`;
}

export function receiptAnswer(ctx: Pick<AppContext, 'config'>, facts: ReceiptFacts): DocumentReceipt {
  return {
    id: facts.transferId,
    kind: facts.kind,
    direction: facts.side === 'debit' ? 'out' : 'in',
    status: facts.status,
    amount: formatAmount(facts.amount, facts.currency),
    currency_code: facts.currency,
    created_at: facts.createdAt.toISOString(),
    description: facts.description,
    counterparty: facts.counterparty,
    account: facts.accountId,
    // A payout's fee is its own transfer of kind 'fee', named here beside the payout it came with.
    fee: formatAmount(facts.fee, facts.currency),
    balance_after: formatAmount(facts.availableAfter, facts.currency),
    verify_url: verifyUrl(ctx, facts),
  };
}

// ---------- statements ----------

/** The longest period one statement covers. */
export const STATEMENT_MAX_DAYS = 366;
/** Entries read per query while a statement streams. */
export const STATEMENT_BATCH = 1000;

export interface StatementHead {
  accountId: string;
  currency: CurrencyCode;
  /** The period as asked: dates, `to` included. */
  dateFrom: string;
  dateTo: string;
  opening: bigint;
  closing: bigint;
  moneyIn: bigint;
  moneyOut: bigint;
  operations: number;
  /** The account's versions the period spans (none when nothing happened in it). */
  versions: { first: bigint; last: bigint } | null;
}

export interface StatementLine {
  createdAt: Date;
  transferId: string;
  kind: TransferKind;
  amount: bigint;
  balanceAfter: bigint;
  description: SidedText | null;
}

/**
 * The statement's figures, checked against the ledger before a line is written: the opening balance
 * plus money in less money out is the closing balance, to the minor unit.
 */
export async function statementHead(
  q: Queryable,
  userId: string,
  query: QueryOut<'statement'>,
): Promise<StatementHead> {
  // The person's own account, or their merchant's (its statement: payments, fees, refunds, settlements).
  const merchant = await merchantAccountOfUser(q, userId, query.account);
  const account = merchant ?? (await ownAccount(q, userId, query.account));
  const owner = merchant ? null : userId;
  const { from, to } = rangeOf(query);
  if (!from || !to || from >= to || to.getTime() - from.getTime() > STATEMENT_MAX_DAYS * 86_400_000)
    throw new AppError('STATEMENT_PERIOD_INVALID', { days: STATEMENT_MAX_DAYS });
  const base = {
    accountId: account.id,
    currency: account.currency,
    dateFrom: query.date_from,
    dateTo: query.date_to,
  };
  const period = await q.query<{ first_version: bigint | null; last_version: bigint | null }>(
    merchant ? MERCHANT_PERIOD_SQL : PERIOD_SQL,
    [owner, account.id, from, to],
  );
  const { first_version: first, last_version: last } = period.rows[0] ?? {};
  if (first == null || last == null) {
    const before = await q.query<{ balance_after: bigint }>(
      merchant ? MERCHANT_BALANCE_BEFORE_SQL : BALANCE_BEFORE_SQL,
      [owner, account.id, from],
    );
    const balance = BigInt(before.rows[0]?.balance_after ?? 0n);
    return {
      ...base,
      opening: balance,
      closing: balance,
      moneyIn: 0n,
      moneyOut: 0n,
      operations: 0,
      versions: null,
    };
  }
  const { rows } = await q.query<{
    opening: bigint;
    closing: bigint;
    money_in: bigint;
    money_out: bigint;
    operations: number;
  }>(PERIOD_FIGURES_SQL, [account.id, first, last]);
  const figures = rows[0]!;
  const head: StatementHead = {
    ...base,
    opening: BigInt(figures.opening),
    closing: BigInt(figures.closing),
    moneyIn: BigInt(figures.money_in),
    moneyOut: BigInt(figures.money_out),
    operations: figures.operations,
    versions: { first: BigInt(first), last: BigInt(last) },
  };
  if (head.opening + head.moneyIn - head.moneyOut !== head.closing)
    throw new Error(`statement of account ${account.id} does not add up`);
  return head;
}

/**
 * The statement's lines in the account's order, read in batches (never the whole period at once);
 * each line's balance is checked against the running sum from the opening balance.
 */
export async function* statementLines(
  q: Queryable,
  head: StatementHead,
  batch = STATEMENT_BATCH,
): AsyncGenerator<StatementLine> {
  if (!head.versions) return;
  let after = head.versions.first - 1n;
  let running = head.opening;
  for (;;) {
    const { rows } = await q.query<{
      account_version: bigint;
      transfer_id: string;
      amount: bigint;
      balance_after: bigint;
      created_at: Date;
      kind: TransferKind;
      description: SidedText | null;
    }>(STATEMENT_BATCH_SQL, [head.accountId, after, head.versions.last, batch]);
    for (const row of rows) {
      running += BigInt(row.amount);
      if (running !== BigInt(row.balance_after))
        throw new Error(`statement of account ${head.accountId} breaks at version ${row.account_version}`);
      yield {
        createdAt: row.created_at,
        transferId: row.transfer_id,
        kind: row.kind,
        amount: BigInt(row.amount),
        balanceAfter: BigInt(row.balance_after),
        description: row.description,
      };
    }
    if (rows.length < batch) break;
    after = BigInt(rows[rows.length - 1]!.account_version);
  }
  if (running !== head.closing) throw new Error(`statement of account ${head.accountId} does not close`);
}
