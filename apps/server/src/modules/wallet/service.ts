/**
 * The signed-in user's money as the app reads it: the wallet with its accounts, one account,
 * the transaction history in cursor pages and statistics by transaction type. Reads the ledger's
 * tables; writes only through the ledger (openAccount). Another user's account id answers
 * ACCOUNT_NOT_FOUND exactly as a missing one does.
 */
import {
  type AccountCurrency,
  type AnswerOf,
  type CurrencyCode,
  dayStart,
  displayText,
  formatAmount,
  type Language,
  type QueryOut,
  TransactionType as TransactionTypeSchema,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type OpaqueIds, processIds } from '../../http/opaque-id.ts';
import {
  type Account,
  type AccountSummary,
  accountOf,
  accountsOf,
  type LocalText,
  openAccount,
  type SidedText,
  type TransferKind,
  type TransferStatus,
} from '../../ledger/index.ts';

type AccountView = AnswerOf<'account'>;
type TransactionView = AnswerOf<'transactions'>['results'][number];
type TransactionType = TransactionView['wallet_transaction_type'];

/** An account as the API shows it, from the ledger's whole account or its summary in a list. */
export function accountView(account: Account | AccountSummary): AccountView {
  return {
    id: account.id,
    currency_code: account.currency,
    // What the person can spend: held money has already left.
    balance: formatAmount(account.available, account.currency),
    created_at: typeof account.createdAt === 'string' ? account.createdAt : account.createdAt.toISOString(),
  };
}

export async function walletOf(q: Queryable, userId: string): Promise<AnswerOf<'wallet'>> {
  const accounts = await accountsOf(q, userId);
  return { results: [{ id: userId, accounts: accounts.map(accountView) }], next: null };
}

export async function openUserAccount(
  ctx: AppContext,
  userId: string,
  currency: AccountCurrency,
): Promise<AccountView> {
  return accountView(await ctx.db.tx((q) => openAccount(q, userId, currency, ctx.clock.now())));
}

export async function ownAccount(q: Queryable, userId: string, accountId: string): Promise<Account> {
  const account = await accountOf(q, userId, accountId);
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
  return account;
}

// ---------- history ----------

export function transactionType(kind: TransferKind): TransactionType {
  return kind === 'topup' ||
    kind === 'withdrawal' ||
    kind === 'payment' ||
    kind === 'transfer' ||
    kind === 'exchange' ||
    kind === 'savings'
    ? kind
    : 'other';
}

export const KIND_TEXTS: Record<TransferKind, { debit: LocalText; credit: LocalText }> = {
  topup: {
    debit: { ru: 'Пополнение кошелька', en: 'Wallet top-up' },
    credit: { ru: 'Пополнение кошелька', en: 'Wallet top-up' },
  },
  withdrawal: {
    debit: { ru: 'Вывод на карту', en: 'Withdrawal to a card' },
    credit: { ru: 'Вывод на карту', en: 'Withdrawal to a card' },
  },
  transfer: {
    debit: { ru: 'Перевод', en: 'Transfer sent' },
    credit: { ru: 'Входящий перевод', en: 'Transfer received' },
  },
  payment: { debit: { ru: 'Оплата', en: 'Payment' }, credit: { ru: 'Оплата', en: 'Payment' } },
  refund: { debit: { ru: 'Возврат', en: 'Refund' }, credit: { ru: 'Возврат', en: 'Refund' } },
  fee: { debit: { ru: 'Комиссия', en: 'Fee' }, credit: { ru: 'Комиссия', en: 'Fee' } },
  exchange: { debit: { ru: 'Обмен', en: 'Exchange' }, credit: { ru: 'Обмен', en: 'Exchange' } },
  savings: {
    debit: { ru: 'В копилку', en: 'To a savings goal' },
    credit: { ru: 'Из копилки', en: 'From a savings goal' },
  },
};

const STATUS: Record<TransferStatus, TransactionView['status']> = {
  pending: 'pending',
  posted: 'complete',
  voided: 'failed',
};

/**
 * A date-range bound from a query: a date (YYYY-MM-DD, a UTC day) or a date-time. `date_from` starts
 * at its instant (or the day's start); `date_to` includes its instant (or the whole day).
 */
export function rangeOf(query: { date_from?: string; date_to?: string }): {
  from: Date | null;
  to: Date | null;
} {
  const bound = (text: string | undefined, end: boolean): Date | null => {
    if (!text) return null;
    // A bare date is a day in the wallet's time zone (Moscow), the days a person reads.
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      if (!end) return dayStart(text);
      const next = new Date(`${text}T00:00:00.000Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      return dayStart(next.toISOString().slice(0, 10));
    }
    const instant = new Date(text);
    return end ? new Date(instant.getTime() + 1) : instant;
  };
  return { from: bound(query.date_from, false), to: bound(query.date_to, true) };
}

export interface HistoryRow {
  entry_id: string;
  transfer_id: string;
  account_id: string;
  amount: bigint;
  currency: CurrencyCode;
  kind: TransferKind;
  created_at: Date;
  status: TransferStatus;
  description: (SidedText & { exchange?: TransactionView['exchange']; way?: 'sbp' }) | null;
  /** Money spent: its category and the category's name (db/functions/categories.sql, budgets.sql). */
  category?: string | null;
  category_name?: string | null;
  /** A held operation's hold, when the row stands for one (OPERATION_FROM). */
  hold_id?: string | null;
  hold_status?: NonNullable<TransactionView['hold']>['status'] | null;
  /** A payout's fee, shown on its row (FEE_COLUMN). */
  fee?: bigint | null;
}

/**
 * A person's operation is one row (docs/decisions/history-and-trust.md): a held operation's opening
 * entry stands for it, its status following the hold, and read as the money that left once released
 * (`t`); that money's own entry of the payer is left out (NOT_RELEASED_MONEY).
 */
const OPERATION_FROM = `ledger_entries e
  LEFT JOIN money_holds h ON h.hold_transfer_id = e.transfer_id
  JOIN ledger_transfers t ON t.id = CASE WHEN h.status = 'released' THEN h.movement_id ELSE e.transfer_id END`;
const NOT_RELEASED_MONEY = `NOT EXISTS (SELECT 1 FROM money_holds r
  WHERE r.movement_id = e.transfer_id AND r.user_id = e.user_id)`;
/**
 * A payout's fee is part of its operation (docs/decisions/sbp.md#fees): its own transfer of kind 'fee' is
 * no row of its own (NOT_FEE), its amount stands on the payout's row.
 */
const FEE_COLUMN = `CASE WHEN t.kind = 'withdrawal' THEN (SELECT p.fee FROM payouts p
  WHERE p.hold_transfer_id = t.id AND p.fee > 0) END AS fee`;
const NOT_FEE = `e.kind <> 'fee'`;
/** The row's columns over OPERATION_FROM: the operation's own words, not the held money's. */
const OPERATION_COLUMNS = `e.id AS entry_id, t.id AS transfer_id, e.account_id, e.amount, e.currency, e.kind,
  e.created_at, t.status, coalesce(h.door -> 'description', t.description) AS description, h.id AS hold_id,
  CASE WHEN h.status = 'releasing' THEN 'held' ELSE h.status END AS hold_status, ${FEE_COLUMN}`;

/** The conditions every history and statistics query shares: the user's opening entries, filtered. */
function historyFilter(
  userId: string,
  filter: { accountId?: string; from: Date | null; to: Date | null; currency?: CurrencyCode },
  // History lists each transfer's opening entry; statistics the entries of completed money.
  entries: 'opening' | 'completed' = 'opening',
): { where: string[]; params: unknown[] } {
  const params: unknown[] = [userId];
  const time = entries === 'opening' ? 'e.created_at' : 'e.opened_at';
  const where = [
    'e.user_id = $1',
    entries === 'opening' ? `e.phase IN ('single', 'hold')` : `e.phase IN ('single', 'post')`,
  ];
  if (filter.accountId) {
    params.push(filter.accountId);
    where.push(`e.account_id = $${params.length}`);
  }
  if (filter.currency) {
    params.push(filter.currency);
    where.push(`e.currency = $${params.length}`);
  }
  if (filter.from) {
    params.push(filter.from);
    where.push(`${time} >= $${params.length}`);
    // Money completed from `from` was written from then on: the person's index range starts there (0470).
    if (entries === 'completed') where.push(`e.created_at >= $${params.length}`);
  }
  if (filter.to) {
    params.push(filter.to);
    where.push(`${time} < $${params.length}`);
  }
  return { where, params };
}

function transactionView(row: HistoryRow, language: Language): TransactionView {
  const side = row.amount < 0n ? 'debit' : 'credit';
  const text = row.description?.[side] ?? KIND_TEXTS[row.kind][side];
  return {
    id: row.transfer_id,
    account_id: row.account_id,
    amount: formatAmount(row.amount, row.currency),
    currency_code: row.currency,
    description: displayText(text[language]),
    created_at: row.created_at.toISOString(),
    wallet_transaction_type: transactionType(row.kind),
    kind: row.kind,
    status: STATUS[row.status],
    ...(row.category !== undefined
      ? { category: row.category ? { id: row.category, name: row.category_name ?? row.category } : null }
      : {}),
    ...(row.kind === 'exchange' && row.description?.exchange ? { exchange: row.description.exchange } : {}),
    ...(row.description?.way === 'sbp' ? { way: 'sbp' as const } : {}),
    ...(row.hold_id && row.hold_status ? { hold: { id: row.hold_id, status: row.hold_status } } : {}),
    ...(row.fee ? { fee: formatAmount(BigInt(row.fee), row.currency) } : {}),
  };
}

/**
 * The operation of one of the user's entries as the history lists it (its opening entry, with the
 * transfer's status now: a hold's posting or release shows as its operation completed or failed), and
 * the account's available balance right after the entry. Null when the entry is not the user's.
 */
export async function transactionOfEntry(
  q: Queryable,
  userId: string,
  entryId: string,
): Promise<{
  row: HistoryRow;
  balance: { account_id: string; currency_code: CurrencyCode; balance: string };
} | null> {
  const { rows } = await q.query<HistoryRow & { available_after: bigint }>(
    `SELECT o.id AS entry_id, o.transfer_id, o.account_id, o.amount, o.currency, o.kind, o.created_at, t.status,
       t.description, e.balance_after - e.pending_debits_after AS available_after
     FROM ledger_entries e
     JOIN ledger_entries o ON o.transfer_id = e.transfer_id AND o.account_id = e.account_id
       AND o.phase IN ('single', 'hold') AND o.user_id = e.user_id AND o.created_at = e.opened_at
     JOIN ledger_transfers t ON t.id = e.transfer_id
     WHERE e.id = $1 AND e.user_id = $2`,
    [entryId, userId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    row,
    balance: {
      account_id: row.account_id,
      currency_code: row.currency,
      balance: formatAmount(BigInt(row.available_after), row.currency),
    },
  };
}

export function entryTransactionView(row: HistoryRow, language: Language): TransactionView {
  return transactionView(row, language);
}

export const DEFAULT_PAGE = 20;

export async function transactionsOf(
  q: Queryable,
  userId: string,
  query: QueryOut<'transactions'>,
  language: Language,
  ids: OpaqueIds = processIds,
): Promise<AnswerOf<'transactions'>> {
  if (query.account) await ownAccount(q, userId, query.account);
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE;
  const descending = (query.ordering ?? '-created_at') === '-created_at';
  const { where, params } = historyFilter(userId, { accountId: query.account, ...rangeOf(query) });
  // An exchange is one operation: the whole history lists it once, by the money that left
  // (docs/decisions/exchange.md#exchange-between-ones-own-accounts); an account's history lists its own leg.
  if (!query.account) where.push(`NOT (e.kind = 'exchange' AND e.amount > 0)`);
  where.push(NOT_RELEASED_MONEY, NOT_FEE);
  if (query.category) {
    params.push(query.category);
    where.push(`e.amount < 0 AND category_of(e.user_id, t) = $${params.length}`);
  }
  if (query.cursor) {
    // The cursor carries the last row's entry (its opaque id): pages break ties on the entry's id.
    const after = decodeCursor(query.cursor, ids);
    const entryId = ids.entryIdOf(after.id);
    if (entryId === null) throw new AppError('FIELD_INVALID', { field: 'cursor' });
    params.push(after.createdAt, entryId);
    where.push(
      `(e.created_at, e.id) ${descending ? '<' : '>'} ($${params.length - 1}::timestamptz, $${params.length}::bigint)`,
    );
  }
  params.push(language);
  const languageParam = params.length;
  params.push(limit + 1);
  const direction = descending ? 'DESC' : 'ASC';
  // Money spent reads its category
  // (docs/decisions/managing-money.md#managing-money-categories-budgets-goals), decided by category_of alone.
  const { rows } = await q.query<HistoryRow>(
    `SELECT page.*, CASE WHEN page.category IS NOT NULL THEN category_name(page.category, $${languageParam}) END
       AS category_name
     FROM (SELECT ${OPERATION_COLUMNS}, CASE WHEN e.amount < 0 THEN category_of(e.user_id, t) END AS category
       FROM ${OPERATION_FROM}
       WHERE ${where.join(' AND ')}
       ORDER BY e.created_at ${direction}, e.id ${direction}
       LIMIT $${params.length}) page
     ORDER BY page.created_at ${direction}, page.entry_id ${direction}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    results: page.map((row) => transactionView(row, language)),
    next:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.created_at, id: ids.entryUuid(last.entry_id) }, ids)
        : null,
  };
}

/**
 * One operation of the person as the history lists it, by either id a held operation has had (its held
 * money's, or the money that left at release); OPERATION_NOT_FOUND for anyone else's.
 */
export async function transactionOf(
  q: Queryable,
  userId: string,
  id: string,
  language: Language,
): Promise<TransactionView> {
  const { rows } = await q.query<HistoryRow>(
    `SELECT row.*, CASE WHEN row.category IS NOT NULL THEN category_name(row.category, $3) END AS category_name
     FROM (SELECT ${OPERATION_COLUMNS}, CASE WHEN e.amount < 0 THEN category_of(e.user_id, t) END AS category
       FROM ${OPERATION_FROM}
       WHERE e.user_id = $1 AND e.phase IN ('single', 'hold') AND ${NOT_RELEASED_MONEY} AND ${NOT_FEE}
         AND e.transfer_id = coalesce((SELECT m.hold_transfer_id FROM money_holds m
           WHERE m.movement_id = $2 AND m.user_id = $1), $2)
       ORDER BY e.amount, e.id LIMIT 1) row`,
    [userId, id, language],
  );
  if (!rows[0]) throw new AppError('OPERATION_NOT_FOUND');
  return transactionView(rows[0], language);
}

// ---------- statistics ----------

/** The contract's types, in its order: every one answered, zero or not. */
export const STAT_TYPES: TransactionType[] = [...TransactionTypeSchema.options];

/**
 * Whole percents of a total that add up to exactly 100 (largest remainder method; ties go to the
 * earlier type). All zero when the total is zero.
 */
export function percents(amounts: bigint[]): number[] {
  const total = amounts.reduce((sum, a) => sum + a, 0n);
  if (total === 0n) return amounts.map(() => 0);
  const floors = amounts.map((a) => (a * 100n) / total);
  const remainders = amounts.map((a, index) => ({ index, rest: (a * 100n) % total }));
  let left = 100n - floors.reduce((sum, f) => sum + f, 0n);
  remainders.sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.index - b.index));
  for (const { index } of remainders) {
    if (left <= 0n) break;
    floors[index]! += 1n;
    left -= 1n;
  }
  return floors.map(Number);
}

/** Completed money by type over a range, in one currency (the account's, the asked one, or RUB). */
export async function statOf(
  q: Queryable,
  userId: string,
  query: QueryOut<'stat'>,
  language: Language = 'ru',
): Promise<AnswerOf<'stat'>> {
  const account = query.account ? await ownAccount(q, userId, query.account) : null;
  if (account && query.currency_code && query.currency_code !== account.currency)
    throw new AppError('FIELD_INVALID', { field: 'currency_code' });
  const currency: CurrencyCode = account?.currency ?? query.currency_code ?? 'RUB';
  const { where, params } = historyFilter(
    userId,
    { accountId: account?.id, currency, ...rangeOf(query) },
    'completed',
  );
  if (query.group_by === 'category') return categoryStatOf(q, currency, where, params, language);
  // Completed money, dated by the transfer's creation like the history: the 'single' entries and
  // the 'post' entries of settled holds, read from one index without touching transfers.
  // Money in and out apart: a total of both would add what came in to what went out.
  const { rows } = await q.query<{ kind: TransferKind; out: boolean; amount: bigint; count: number }>(
    `SELECT e.kind, e.amount < 0 AS out, sum(abs(e.amount))::bigint AS amount, count(*)::integer AS count
     FROM ledger_entries e
     WHERE ${where.join(' AND ')}
     GROUP BY e.kind, e.amount < 0`,
    params,
  );
  const byType = new Map<TransactionType, { in: bigint; out: bigint; count: number }>(
    STAT_TYPES.map((type) => [type, { in: 0n, out: 0n, count: 0 }]),
  );
  // Money in and spent are money that came from or went to someone else: an exchange and a savings
  // goal's move only move one's own money between accounts, as the monthly limit also reads them.
  const counted = { in: 0n, out: 0n };
  for (const row of rows) {
    // A payout's fee is spent with its payout, one operation (FEE_COLUMN): its type, no count of its own.
    const entry = byType.get(row.kind === 'fee' ? 'withdrawal' : transactionType(row.kind))!;
    if (row.out) entry.out += BigInt(row.amount);
    else entry.in += BigInt(row.amount);
    if (row.kind !== 'fee') entry.count += row.count;
    if (row.kind === 'exchange' || row.kind === 'savings') continue;
    if (row.out) counted.out += BigInt(row.amount);
    else counted.in += BigInt(row.amount);
  }
  const sides = STAT_TYPES.map((type) => byType.get(type)!);
  const amounts = sides.map((side) => side.in + side.out);
  const shares = percents(amounts);
  const sum = (values: bigint[]) => values.reduce((total, a) => total + a, 0n);
  return {
    results: STAT_TYPES.map((type, index) => ({
      wallet_transaction_type: type,
      amount: formatAmount(amounts[index]!, currency),
      amount_in: formatAmount(sides[index]!.in, currency),
      amount_out: formatAmount(sides[index]!.out, currency),
      percent: shares[index]!,
      count: sides[index]!.count,
    })),
    next: null,
    currency_code: currency,
    total: formatAmount(sum(amounts), currency),
    total_in: formatAmount(counted.in, currency),
    total_out: formatAmount(counted.out, currency),
  };
}

/**
 * Money spent by category (docs/decisions/managing-money.md#managing-money-categories-budgets-goals): the
 * same completed entries as the totals by type, so the amounts sum to `total_out`; biggest first, whole
 * percents summing to 100.
 */
async function categoryStatOf(
  q: Queryable,
  currency: CurrencyCode,
  where: string[],
  params: unknown[],
  language: Language,
): Promise<AnswerOf<'stat'>> {
  const { rows } = await q.query<{ category: string; name: string; amount: bigint; count: number }>(
    `SELECT spent.category, category_name(spent.category, $${params.length + 1}) AS name, spent.amount, spent.count
     FROM (SELECT category_of(e.user_id, t) AS category, sum(-e.amount)::bigint AS amount, count(*)::integer AS count
       FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
       WHERE ${where.join(' AND ')} AND category_spending(e)
       GROUP BY 1) spent
     ORDER BY spent.amount DESC, spent.category`,
    [...params, language],
  );
  const amounts = rows.map((row) => BigInt(row.amount));
  const shares = percents(amounts);
  return {
    group_by: 'category',
    results: rows.map((row, index) => ({
      category: row.category,
      name: row.name,
      amount: formatAmount(amounts[index]!, currency),
      percent: shares[index]!,
      count: row.count,
    })),
    next: null,
    currency_code: currency,
    total: formatAmount(
      amounts.reduce((total, a) => total + a, 0n),
      currency,
    ),
  };
}
