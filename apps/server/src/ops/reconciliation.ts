/**
 * Reconciliation (docs/decisions/back-office.md#the-operators-back-office): each provider's records of a day
 * against the ledger.
 */
import type { AppContext } from '../context.ts';
import { shownDestinationSql } from '../modules/payouts/index.ts';
import type { ProviderRecord } from '../providers/records.ts';
import { moneyText } from './money.ts';

/** A day as the wallet counts days: Moscow time (UTC+3 all year), as the monthly limits do. */
function dayBounds(date: string): { from: Date; to: Date } {
  const from = new Date(`${date}T00:00:00+03:00`);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

interface Difference {
  provider: string;
  kind: 'topups' | 'payouts';
  problem: 'missing_in_ledger' | 'missing_at_provider' | 'amount_mismatch' | 'status_mismatch';
  reference: string | null;
  provider_id: string | null;
  provider_amount: string | null;
  provider_status: string | null;
  ledger_amount: string | null;
  ledger_status: string | null;
  /** A payout's destination as operators read it (an СБП payout's bank and masked phone); null for top-ups. */
  destination: string | null;
}

interface LedgerSide {
  reference: string;
  amount: bigint;
  currency: string;
  status: string;
  created_at: Date;
  destination?: string | null;
}

function compare(
  provider: string,
  kind: Difference['kind'],
  day: { from: Date; to: Date },
  records: ProviderRecord[],
  ledger: Map<string, LedgerSide>,
  ledgerOfDay: LedgerSide[],
  // What the provider's outcome means in the ledger.
  expected: Record<ProviderRecord['status'], string[]>,
): Difference[] {
  const differences: Difference[] = [];
  const byReference = new Map(records.filter((r) => r.reference).map((r) => [r.reference!, r]));
  const add = (problem: Difference['problem'], record: ProviderRecord | null, side: LedgerSide | null) =>
    differences.push({
      provider,
      kind,
      problem,
      reference: record?.reference ?? side?.reference ?? null,
      provider_id: record?.providerId ?? null,
      provider_amount: record ? moneyText(record.amount, record.currency) : null,
      provider_status: record?.status ?? null,
      ledger_amount: side ? moneyText(side.amount, side.currency) : null,
      ledger_status: side?.status ?? null,
      destination: side?.destination ?? null,
    });
  for (const record of records) {
    if (record.createdAt < day.from || record.createdAt >= day.to) continue;
    const side = record.reference ? ledger.get(record.reference) : undefined;
    if (!side) {
      if (record.status === 'succeeded') add('missing_in_ledger', record, null);
      continue;
    }
    if (!expected[record.status].includes(side.status))
      add(side.status === 'none' ? 'missing_in_ledger' : 'status_mismatch', record, side);
    else if (BigInt(side.amount) !== record.amount || side.currency !== record.currency)
      add('amount_mismatch', record, side);
  }
  for (const side of ledgerOfDay) {
    if (side.status === 'none' || side.status === 'voided') continue;
    if (!byReference.has(side.reference)) add('missing_at_provider', null, side);
  }
  return differences;
}

/**
 * Compares each provider's records of the day with the ledger: top-ups (the provider's payments and the
 * orders' credits) and payouts (the provider's payouts and their holds). Lists every difference.
 */
export async function reconciliation(ctx: AppContext, date: string): Promise<unknown> {
  const day = dayBounds(date);
  // A record of the day may be credited the next day, and the other way round: match over three days.
  const wide = {
    from: new Date(day.from.getTime() - 86_400_000),
    to: new Date(day.to.getTime() + 86_400_000),
  };
  const providers: unknown[] = [];
  const differences: Difference[] = [];
  /** One provider's side: its records of the three days against the ledger's rows of the same references. */
  const reconcile = async (
    provider: { id: string; records?: (from: Date, to: Date) => Promise<ProviderRecord[]> },
    kind: Difference['kind'],
    sql: (where: string) => string,
    reference: string,
    expected: Record<ProviderRecord['status'], string[]>,
  ) => {
    const records = provider.records ? await provider.records(wide.from, wide.to) : null;
    const { rows: ledger } = await ctx.db.query<LedgerSide>(sql(`${reference} = ANY($2::text[])`), [
      provider.id,
      (records ?? []).map((r) => r.reference).filter(Boolean),
    ]);
    const { rows: ofDay } = await ctx.db.query<LedgerSide>(sql('t.created_at >= $2 AND t.created_at < $3'), [
      provider.id,
      day.from,
      day.to,
    ]);
    providers.push({
      provider: provider.id,
      kind,
      listed: records !== null,
      provider_records:
        records?.filter((r) => r.createdAt >= day.from && r.createdAt < day.to).length ?? null,
      ledger_records: ofDay.length,
    });
    if (records)
      differences.push(
        ...compare(
          provider.id,
          kind,
          day,
          records,
          new Map(ledger.map((r) => [r.reference, r])),
          ofDay,
          expected,
        ),
      );
  };

  // Top-ups: an order and the transfer that credited it (none while it is not credited).
  await reconcile(
    ctx.payments,
    'topups',
    (where) =>
      `SELECT o.id::text AS reference, coalesce(t.amount, o.amount) AS amount, o.currency,
         coalesce(t.status, 'none') AS status, coalesce(t.created_at, o.created_at) AS created_at
       FROM topup_orders o LEFT JOIN ledger_transfers t ON t.id = o.transfer_id
       WHERE o.provider = $1 AND ${where}`,
    'o.id::text',
    { succeeded: ['posted'], pending: ['none'], canceled: ['none'] },
  );
  // Payouts: a payout and its hold.
  await reconcile(
    ctx.payouts,
    'payouts',
    (where) =>
      `SELECT p.id::text AS reference, t.amount, p.currency, t.status, t.created_at,
         ${shownDestinationSql('p')} AS destination
       FROM payouts p JOIN ledger_transfers t ON t.id = p.hold_transfer_id
       WHERE p.provider = $1 AND ${where}`,
    'p.id::text',
    { succeeded: ['posted'], pending: ['pending'], canceled: ['voided'] },
  );
  return { date, from: day.from, to: day.to, providers, differences, merchants: await merchantsCheck(ctx) };
}

/**
 * Merchants (docs/decisions/merchants.md#merchants): each merchant's ledger balance against its own
 * records, its paid payments less their refunds, the fees taken and its settlements paid out; the total
 * the wallet holds for them, and what their settlements hold on the way to their banks (the payouts'
 * reconciliation above compares those with the provider).
 */
async function merchantsCheck(ctx: AppContext): Promise<unknown> {
  const { rows } = await ctx.db.query<{
    id: string;
    name: string;
    balance: string;
    pending: string;
    expected: string;
  }>(
    `SELECT m.id, m.name, a.balance, a.pending_debits AS pending,
       coalesce((SELECT sum(p.amount - p.refunded) FROM merchant_payments p
         WHERE p.merchant_id = m.id AND p.status = 'succeeded'), 0)
       - coalesce((SELECT sum(t.amount) FROM ledger_transfers t WHERE t.debit_account_id = a.id AND t.kind = 'fee'), 0)
       - coalesce((SELECT sum(o.amount) FROM payouts o WHERE o.merchant_id = m.id AND o.status = 'succeeded'), 0)
         AS expected
     FROM merchants m JOIN ledger_accounts a ON a.id = m.account_id ORDER BY m.created_at, m.id`,
  );
  const total = rows.reduce((sum, row) => sum + BigInt(row.balance), 0n);
  const settling = rows.reduce((sum, row) => sum + BigInt(row.pending), 0n);
  return {
    count: rows.length,
    balance: moneyText(total, 'RUB'),
    settling: moneyText(settling, 'RUB'),
    differences: rows
      .filter((row) => BigInt(row.balance) !== BigInt(row.expected))
      .map((row) => ({
        merchant: row.id,
        name: row.name,
        ledger_balance: moneyText(BigInt(row.balance), 'RUB'),
        expected: moneyText(BigInt(row.expected), 'RUB'),
      })),
  };
}
