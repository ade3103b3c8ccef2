/**
 * What counting foreign money in roubles costs the payment door, and what an exchange costs
 * (docs/decisions/exchange.md#exchange-between-ones-own-accounts), on PostgreSQL: `ledger_pay` in check mode
 * (every limit asked, nothing written) with limits.sql as it is and as it was before the exchange (roubles
 * only), in turns on one database; then whole exchanges (the same door's branch for a quote), one after
 * another.
 *   node bench/exchange.ts [--calls=2000]   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { openDoor } from '../apps/server/src/ledger/index.ts';
import { levelRules, levelRulesJson } from '../apps/server/src/policy/levels.ts';
import { fund, insertUser } from '../apps/server/test/fund.ts';

const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const calls = Number(process.argv.find((a) => a.startsWith('--calls='))?.slice(8) ?? 2000);
const BEFORE = '49fffd690a77c8b6e468a0ae8e9dc01c7a6dfd6e';

const name = `ewallet_bench_exchange_${process.pid}_${randomBytes(3).toString('hex')}`;
const adminClient = new pg.Client({ connectionString: admin });
await adminClient.connect();
await adminClient.query(`CREATE DATABASE ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const db = await openPostgres(url.toString(), 4);
try {
  await migrate(db);
  const now = () => new Date();
  const clock = { now };
  const rules = levelRulesJson(levelRules());
  const [payer, payee] = await db.tx(async (q) => [await insertUser(q), await insertUser(q)]);
  await db.query(
    `UPDATE users SET identification_level = 'simplified', pin_hash = '\\x01' WHERE id IN ($1, $2)`,
    [payer, payee],
  );
  await fund({ db, clock }, payer!, 10_000_000n);
  await fund({ db, clock }, payer!, 100_00n, 'USD');

  const check = `SELECT outcome FROM ledger_pay(call => jsonb_build_object('payer', $1::uuid, 'payee', $2::uuid,
    'currency', 'RUB', 'amount', 100, 'kind', 'transfer', 'at', now(), 'check', true), rules => $3::jsonb,
    pin_proof => NULL)`;
  async function timeChecks(): Promise<number> {
    const started = performance.now();
    for (let i = 0; i < calls; i++) await db.query(check, [payer, payee, rules]);
    return ((performance.now() - started) * 1000) / calls;
  }
  const current = readFileSync(
    new URL('../apps/server/src/db/functions/limits.sql', import.meta.url),
    'utf8',
  );
  const before = execFileSync('git', ['show', `${BEFORE}:apps/server/src/db/functions/limits.sql`], {
    encoding: 'utf8',
  });
  const results: Record<string, number[]> = { now: [], before: [] };
  await timeChecks(); // warm-up
  for (let round = 0; round < 3; round++) {
    await db.exec(before);
    results.before!.push(await timeChecks());
    await db.exec(current);
    results.now!.push(await timeChecks());
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `ledger_pay check, µs per call (median of 3 × ${calls}): limits in roubles across currencies ${median(results.now!).toFixed(0)}, roubles only ${median(results.before!).toFixed(0)}`,
  );

  const exchanges = Math.max(100, Math.floor(calls / 4));
  let spent = 0;
  for (let i = 0; i < exchanges; i++) {
    const quoteId = randomUUID();
    await db.query(
      `INSERT INTO exchange_quotes (id, user_id, from_currency, to_currency, amount, fee, receive_amount, rate,
         created_at, expires_at) VALUES ($1, $2, 'RUB', 'USD', 10000, 150, 123, 0.0125, now(), now() + interval '30 seconds')`,
      [quoteId, payer],
    );
    const started = performance.now();
    const done = await openDoor(
      db,
      {
        door: 'exchange',
        quoteId,
        person: payer!,
        outId: randomUUID(),
        inId: randomUUID(),
        description: { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } },
        at: new Date(),
        rules,
      },
      {
        pinProof: Buffer.from([1]),
        call: { name: 'exchange', key: randomUUID(), requestHash: 'h', answer: {} },
      },
    );
    spent += performance.now() - started;
    if (done.outcome !== 'created') throw new Error(`exchange ${done.outcome}`);
  }
  console.log(
    `exchange through ledger_pay, ms per exchange (${exchanges} one after another): ${(spent / exchanges).toFixed(2)}`,
  );
} finally {
  await db.close();
  await adminClient.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminClient.end();
}
