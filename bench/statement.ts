/**
 * Statements at size: one account with 10,000 operations and one with 1,000, each statement fetched
 * over HTTP from a server in this process (so its memory is this process's), the body read and
 * dropped as it arrives. Reports the time of each (CSV and PDF) and the peak live heap (sampled after
 * a full collection every 50 ms) and RSS above the level before the request: a statement that streams costs the same memory at 10,000 lines as at 1,000.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext } from '../apps/server/src/create-context.ts';
import { systemAccount, transfer, userAccount } from '../apps/server/src/ledger/index.ts';
import { createSession } from '../apps/server/src/sessions/tokens.ts';
import { insertUser } from '../apps/server/test/fund.ts';
import { type BenchDb, log } from './lib.ts';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

export interface StatementRun {
  operations: number;
  format: 'csv' | 'pdf';
  ms: number;
  bytes: number;
  peakHeapDeltaMiB: number;
  peakRssDeltaMiB: number;
}

const START = Date.UTC(2026, 0, 1);
const MiB = 1024 * 1024;
const round = (value: number) => Math.round(value * 10) / 10;

/** `count` operations on a new user's RUB account over January, money in and out in turn. */
async function seedAccount(db: Awaited<ReturnType<typeof createContext>>['db'], count: number) {
  const userId = await db.tx((q) => insertUser(q, { at: new Date(START - 86_400_000) }));
  const step = Math.floor((30 * 86_400_000) / count);
  for (let done = 0; done < count; ) {
    const batch = Math.min(500, count - done);
    await db.tx(async (q) => {
      const account = (await userAccount(q, userId, 'RUB'))!;
      const source = await systemAccount(q, 'RUB', 'adjustments');
      const shop = await systemAccount(q, 'RUB', 'external_payments');
      for (let i = done; i < done + batch; i++) {
        const incoming = i % 2 === 0;
        await transfer(q, {
          debit: incoming ? source.id : account.id,
          credit: incoming ? account.id : shop.id,
          amount: incoming ? 150_000n + BigInt(i % 997) : 100_000n + BigInt(i % 991),
          currency: 'RUB',
          kind: incoming ? 'topup' : 'payment',
          idempotencyKey: `bench-statement:${randomUUID()}`,
          description: incoming
            ? { ru: 'Пополнение с банковской карты', en: 'Top-up from a bank card' }
            : { ru: 'Оплата по QR-коду: ООО «Три кита»', en: 'QR payment: Three Whales LLC' },
          at: new Date(START + i * step),
        });
      }
    });
    done += batch;
  }
  const account = (await userAccount(db, userId, 'RUB'))!;
  const { token } = await db.tx((q) =>
    createSession(q, userId, { userAgent: 'bench', ip: '127.0.0.1', now: new Date() }),
  );
  return { accountId: account.id, token };
}

async function fetchStatement(
  url: string,
  token: string,
  operations: number,
  format: 'csv' | 'pdf',
  sampleMemory: boolean,
): Promise<StatementRun> {
  gc();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  // Every 50 ms a full collection, then the heap: what the statement holds live, not its garbage.
  const sampler = setInterval(() => {
    if (!sampleMemory) return;
    gc();
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 50);
  const begin = performance.now();
  const response = await fetch(url, { headers: { authorization: `Token ${token}` } });
  if (!response.ok || !response.body) throw new Error(`statement answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  const ms = Math.round(performance.now() - begin);
  clearInterval(sampler);
  return {
    operations,
    format,
    ms,
    bytes,
    peakHeapDeltaMiB: round((peakHeap - before.heapUsed) / MiB),
    peakRssDeltaMiB: round((peakRss - before.rss) / MiB),
  };
}

export async function statementBench(database: BenchDb): Promise<StatementRun[]> {
  const config = loadConfig({
    DATABASE_URL: database.url,
    WALLET_ENV: 'development',
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
    DB_POOL_SIZE: '4',
  });
  const ctx = await createContext(config, {});
  const app = await buildApp(ctx, { logger: false });
  try {
    const begin = Date.now();
    const large = await seedAccount(ctx.db, 10_000);
    const small = await seedAccount(ctx.db, 1_000);
    log(`statement: seeded 11,000 operations in ${Math.round((Date.now() - begin) / 1000)} s`);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const runs: StatementRun[] = [];
    for (const format of ['csv', 'pdf'] as const) {
      for (const [operations, seeded] of [
        [1_000, small],
        [10_000, large],
      ] as const) {
        const url = `${address}/v2/wallet/statement?account=${seeded.accountId}&date_from=2026-01-01&date_to=2026-01-31&format=${format}`;
        await fetchStatement(url, seeded.token, operations, format, false); // warm-up: code, plans, fonts
        const timed = await fetchStatement(url, seeded.token, operations, format, false);
        // Memory from a second run: the collections that sampling needs would slow the timed one.
        const sampled = await fetchStatement(url, seeded.token, operations, format, true);
        runs.push({ ...sampled, ms: timed.ms });
      }
    }
    return runs;
  } finally {
    await app.close();
    await ctx.stop();
  }
}

/** The benchmark alone: `node bench/statement.ts` (an admin URL in BENCH_DATABASE_URL or the default). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { freshDatabase, parseOptions } = await import('./lib.ts');
  const database = await freshDatabase(parseOptions([]), 'statement');
  try {
    console.table(await statementBench(database));
  } finally {
    await database.drop();
  }
}
