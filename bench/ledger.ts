/**
 * The database side: pgbench's TPC-B (the machine's PostgreSQL limit with N clients), ledger
 * transfers through the ledger module with N workers on a pool of N connections (many accounts,
 * and every transfer into one hot merchant account), the invariants afterwards, and the ledger on
 * embedded PGlite with its data on disk.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, Queryable } from '../apps/server/src/db/client.ts';
import { openPglite, openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { systemAccount, transfer } from '../apps/server/src/ledger/index.ts';
import {
  type BenchDb,
  databaseCpuSeconds,
  type FunctionTime,
  freshDatabase,
  functionTimes,
  log,
  type Options,
  perRequest,
  resetFunctionTimes,
  run,
  seeded,
  trackFunctions,
} from './lib.ts';

export interface PgbenchResult {
  tps: number;
  clients: number;
  seconds: number;
  scale: number;
  latencyMs: number;
}

/** pgbench -i -s 10, then the built-in TPC-B with the same clients as the ledger runs. */
export async function pgbench(options: Options, seconds: number): Promise<PgbenchResult> {
  const db = await freshDatabase(options, 'pgbench');
  const scale = 10;
  try {
    await run('pgbench', ['-i', '-q', '-s', String(scale), db.url]);
    const out = await run('pgbench', [
      '-c',
      String(options.clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      '-n',
      db.url,
    ]);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? 0);
    return { tps: Math.round(tps), clients: options.clients, seconds, scale, latencyMs };
  } finally {
    await db.drop();
  }
}

export interface LedgerRunResult {
  transfersPerSecond: number;
  transfers: number;
  failed: number;
  seconds: number;
  workers: number;
  accounts: number;
  p50Ms: number;
  p99Ms: number;
  violations: string[];
  /** CPU time the PostgreSQL backends spent per transfer, in µs (PostgreSQL server runs only). */
  databaseCpuUsPerTransfer?: number;
  /** CPU time the bench's own process (the ledger module and its driver loop) spent per transfer, in µs. */
  nodeCpuUsPerTransfer?: number;
  /** PostgreSQL's time per call in each PL/pgSQL function during the run (PostgreSQL server runs only). */
  functions?: Record<string, FunctionTime>;
}

/**
 * `count` users, each with a RUB account funded by one posted top-up from the RUB adjustments
 * account, written set-based in one transaction exactly as the ledger writes them (a transfer, one
 * entry per side with the balance and version after it), so the invariants hold from the start.
 * The ledger module itself is what the measured loop calls; one call per account would make the
 * seed longer than the measurement on a busy machine.
 */
export async function seedAccounts(
  db: Db,
  count: number,
  fundMinor: bigint,
  phonePrefix = '+7977',
): Promise<string[]> {
  const at = new Date();
  return db.tx(async (q) => {
    const source = await systemAccount(q, 'RUB', 'adjustments');
    await q.query('SELECT id FROM ledger_accounts WHERE id = $1 FOR NO KEY UPDATE', [source.id]);
    const { rows: base } = await q.query<{ balance: bigint; version: bigint }>(
      'SELECT balance, version FROM ledger_accounts WHERE id = $1',
      [source.id],
    );
    await q.query(
      `CREATE TEMP TABLE bench_seed ON COMMIT DROP AS
       SELECT g, gen_random_uuid() AS user_id, gen_random_uuid() AS account_id, gen_random_uuid() AS transfer_id
       FROM generate_series(1, $1::int) AS g`,
      [count],
    );
    await q.query(
      `INSERT INTO users (id, first_name, last_name, phone, email, created_at)
       SELECT user_id, 'Бенч', 'Тестов', $1 || lpad(g::text, 7, '0'), 'bench' || g || '@example.com', $2
       FROM bench_seed`,
      [phonePrefix, at],
    );
    await q.query(
      `INSERT INTO ledger_accounts (id, user_id, purpose, currency, balance, version, created_at)
       SELECT account_id, user_id, 'user', 'RUB', $1, 1, $2 FROM bench_seed`,
      [fundMinor, at],
    );
    await q.query(
      `INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, currency, kind, status,
         is_hold, reference_type, reference_id, created_at, settled_at)
       SELECT transfer_id, $1, account_id, $2, 'RUB', 'topup', 'posted', false,
         'bench_fund', user_id::text, $3, $3 FROM bench_seed`,
      [source.id, fundMinor, at],
    );
    await q.query(
      `INSERT INTO ledger_entries (transfer_id, account_id, user_id, phase, amount, currency, kind, balance_after,
         pending_debits_after, account_version, created_at, opened_at)
       SELECT transfer_id, account_id, user_id, 'single', $1::bigint, 'RUB', 'topup', $1::bigint, 0, 1,
         $2::timestamptz, $2::timestamptz FROM bench_seed
       UNION ALL
       SELECT transfer_id, $3::uuid, NULL::uuid, 'single', -$1::bigint, 'RUB', 'topup', $4::bigint - g * $1::bigint, 0,
         $5::bigint + g, $2::timestamptz, $2::timestamptz FROM bench_seed`,
      [fundMinor, at, source.id, base[0]!.balance, base[0]!.version],
    );
    await q.query(
      'UPDATE ledger_accounts SET balance = balance - $2::bigint * $3::bigint, version = version + $3 WHERE id = $1',
      [source.id, fundMinor, count],
    );
    const { rows } = await q.query<{ account_id: string }>('SELECT account_id FROM bench_seed ORDER BY g');
    return rows.map((r) => r.account_id);
  });
}

/**
 * `count` people who can pay through the person's door: seeded as `seedAccounts`, at the simplified
 * level, each with the PIN proof `\x01` (`ledger_pay` compares the proof with the stored hash).
 */
export async function seedPayers(
  db: Db,
  count: number,
  fundMinor: bigint,
): Promise<{ accounts: string[]; people: string[] }> {
  const accounts = await seedAccounts(db, count, fundMinor);
  const { rows } = await db.query<{ id: string }>(
    `UPDATE users SET identification_level = 'simplified', pin_hash = '\\x01', pin_salt = '\\x01', pin_key_version = 1
     RETURNING id`,
  );
  return { accounts, people: rows.map((r) => r.id) };
}

/** The bench's ledger transfer of 1.00 RUB: one atomic statement, needing no transaction around it. */
export function benchTransfer(db: Db, debit: string, credit: string) {
  return transfer(db, {
    debit,
    credit,
    amount: 100n,
    currency: 'RUB',
    kind: 'transfer',
    idempotencyKey: `bench:${randomUUID()}`,
    description: {
      debit: { ru: 'Перевод: Бенч Т.', en: 'Transfer to Бенч Т.' },
      credit: { ru: 'Перевод от Бенч Т.', en: 'Transfer from Бенч Т.' },
    },
    at: new Date(),
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! * 100) / 100;
}

/**
 * N workers, each looping `transfer(db, ...)` (one statement, its own transaction) for `seconds`: a random funded account to a
 * random other one (or, with `hot`, always to the one hot merchant account).
 */
async function drive(
  db: Db,
  accounts: string[],
  options: { workers: number; seconds: number; hot: string | null; seed: number },
): Promise<{ done: number; failed: number; latencies: number[] }> {
  const random = seeded(options.seed);
  const deadline = performance.now() + options.seconds * 1000;
  let done = 0;
  let failed = 0;
  const latencies: number[] = [];
  const worker = async () => {
    while (performance.now() < deadline) {
      const debit = accounts[Math.floor(random() * accounts.length)]!;
      let credit = options.hot ?? accounts[Math.floor(random() * accounts.length)]!;
      if (credit === debit) credit = accounts[(accounts.indexOf(debit) + 1) % accounts.length]!;
      const started = performance.now();
      try {
        await benchTransfer(db, debit, credit);
        done += 1;
        latencies.push(performance.now() - started);
      } catch (error) {
        failed += 1;
        if (failed <= 3) log(`ledger transfer failed: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { done, failed, latencies };
}

/** Sum of each currency is zero and no user account is below zero (checked in SQL over everything). */
export async function invariantViolations(q: Queryable): Promise<string[]> {
  const problems: string[] = [];
  const { rows: sums } = await q.query<{ currency: string; total: bigint; debits: bigint; credits: bigint }>(
    `SELECT currency, sum(balance)::bigint AS total, sum(pending_debits)::bigint AS debits,
       sum(pending_credits)::bigint AS credits FROM ledger_accounts GROUP BY currency`,
  );
  for (const s of sums) {
    if (BigInt(s.total) !== 0n) problems.push(`${s.currency}: balances sum to ${s.total}`);
    if (BigInt(s.debits) !== BigInt(s.credits)) problems.push(`${s.currency}: pending debits != credits`);
  }
  const { rows: negative } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_accounts
     WHERE user_id IS NOT NULL AND (balance < 0 OR balance - pending_debits < 0)`,
  );
  if (negative[0]!.n > 0) problems.push(`${negative[0]!.n} user accounts below zero`);
  // Every account's balance equals the sum of its entries, and its version their count.
  const { rows: drift } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount) FILTER (WHERE phase IN ('single', 'post')) AS total, count(*) AS entries
                FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
     WHERE a.balance <> coalesce(e.total, 0) OR a.version <> coalesce(e.entries, 0)`,
  );
  if (drift[0]!.n > 0)
    problems.push(`${drift[0]!.n} accounts whose balance or version differs from their entries`);
  // Every entry is on its transfer's account of its side.
  const { rows: stray } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_entries e LEFT JOIN ledger_transfers t ON t.id = e.transfer_id
     WHERE t.id IS NULL OR e.account_id <> (CASE WHEN e.amount < 0 THEN t.debit_account_id ELSE t.credit_account_id END)`,
  );
  if (stray[0]!.n > 0) problems.push(`${stray[0]!.n} entries not on an account of their transfer`);
  // Every transfer is between two accounts of its currency.
  const { rows: unanchored } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_transfers t
     LEFT JOIN ledger_accounts d ON d.id = t.debit_account_id AND d.currency = t.currency
     LEFT JOIN ledger_accounts c ON c.id = t.credit_account_id AND c.currency = t.currency
     WHERE d.id IS NULL OR c.id IS NULL`,
  );
  if (unanchored[0]!.n > 0)
    problems.push(`${unanchored[0]!.n} transfers not between two accounts of their currency`);
  return problems;
}

function summarise(
  result: { done: number; failed: number; latencies: number[] },
  seconds: number,
  workers: number,
  accounts: number,
  violations: string[],
): LedgerRunResult {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    transfersPerSecond: Math.round(result.done / seconds),
    transfers: result.done,
    failed: result.failed,
    seconds,
    workers,
    accounts,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    violations,
  };
}

/** Measurements 2 and 3 on one fresh PostgreSQL database: many accounts, then one hot merchant. */
export async function ledgerPostgres(
  options: Options,
  seconds: number,
): Promise<{ many: LedgerRunResult; hot: LedgerRunResult }> {
  const bench: BenchDb = await freshDatabase(options, 'ledger');
  await trackFunctions(options, bench);
  const db = await openPostgres(bench.url, options.clients);
  try {
    await migrate(db);
    const count = options.quick ? 2_000 : 10_000;
    log(`ledger: seeding ${count} funded accounts`);
    const accounts = await seedAccounts(db, count, 10_000_000n);
    await db.exec('ANALYZE');
    const name = new URL(bench.url).pathname.slice(1);
    // The pool's connections stay open through both runs, so their backends' CPU can be read around each.
    const measured = async (run: () => ReturnType<typeof drive>) => {
      const before = databaseCpuSeconds(name);
      const own = process.cpuUsage();
      const result = await run();
      const spent = process.cpuUsage(own);
      return {
        result,
        cpu: perRequest(before, databaseCpuSeconds(name), result.done),
        node: perRequest(0, (spent.user + spent.system) / 1e6, result.done),
      };
    };
    await resetFunctionTimes(bench.url);
    const many = await measured(() =>
      drive(db, accounts, { workers: options.clients, seconds, hot: null, seed: 1 }),
    );
    const functions = await functionTimes(bench.url);
    const manyViolations = await invariantViolations(db);
    const [merchant, ...payers] = accounts;
    const hot = await measured(() =>
      drive(db, payers, { workers: options.clients, seconds, hot: merchant!, seed: 2 }),
    );
    const hotViolations = await invariantViolations(db);
    return {
      many: {
        ...summarise(many.result, seconds, options.clients, count, manyViolations),
        ...(many.cpu === undefined ? {} : { databaseCpuUsPerTransfer: many.cpu }),
        ...(many.node === undefined ? {} : { nodeCpuUsPerTransfer: many.node }),
        functions,
      },
      hot: {
        ...summarise(hot.result, seconds, options.clients, count, hotViolations),
        ...(hot.cpu === undefined ? {} : { databaseCpuUsPerTransfer: hot.cpu }),
        ...(hot.node === undefined ? {} : { nodeCpuUsPerTransfer: hot.node }),
      },
    };
  } finally {
    await db.close();
    await bench.drop();
  }
}

/** Measurement 5: the same transfers on embedded PGlite with its data in a folder on disk (one session). */
export async function ledgerPglite(_options: Options, seconds: number): Promise<LedgerRunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ewallet-bench-pglite-'));
  const db = await openPglite(dir);
  try {
    await migrate(db);
    const count = 1_000;
    const accounts = await seedAccounts(db, count, 10_000_000n);
    // Concurrency buys nothing on one session, but callers do queue this way in the server.
    const result = await drive(db, accounts, { workers: 4, seconds, hot: null, seed: 3 });
    const violations = await invariantViolations(db);
    return summarise(result, seconds, 4, count, violations);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
