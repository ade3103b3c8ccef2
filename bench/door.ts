/**
 * PostgreSQL's time per call in the person's door (`ledger_pay`, a P2P payment with a PIN proof and an
 * Idempotency-Key) beside a bare ledger transfer (`ledger_open`), driven in alternating rounds from
 * one process on one database, so both meet the same machine (pg_stat_user_functions, self and total
 * time per function). What the full run's P2P row measures through HTTP, without HTTP.
 *   node bench/door.ts [--calls=3000] [--clients=4]
 *   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { randomUUID } from 'node:crypto';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { openDoor, transfer } from '../apps/server/src/ledger/index.ts';
import { levelRules, levelRulesJson } from '../apps/server/src/policy/levels.ts';
import { seedAccounts } from './ledger.ts';
import {
  freshDatabase,
  functionTimes,
  type Options,
  resetFunctionTimes,
  seeded,
  trackFunctions,
} from './lib.ts';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const calls = arg('calls', 3000);
const clients = arg('clients', 4);
const options = {
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
} as Options;

const bench = await freshDatabase(options, 'door');
await trackFunctions(options, bench);
const db = await openPostgres(bench.url, clients);
try {
  await migrate(db);
  const accounts = await seedAccounts(db, 2000, 1_000_000n);
  const { rows } = await db.query<{ id: string; user_id: string }>(
    `UPDATE users SET identification_level = 'simplified', pin_hash = '\\x01', pin_salt = '\\x01', pin_key_version = 1
     RETURNING id, id AS user_id`,
  );
  const people = rows.map((r) => r.id);
  await db.exec('ANALYZE');
  const rules = levelRulesJson(levelRules());
  const random = seeded(7);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const proof = Buffer.from([1]);
  const text = { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } };

  async function bare(n: number) {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < n / clients; i++) {
          const debit = pick(accounts);
          let credit = pick(accounts);
          while (credit === debit) credit = pick(accounts);
          await transfer(db, {
            debit,
            credit,
            amount: 100n,
            currency: 'RUB',
            kind: 'transfer',
            idempotencyKey: randomUUID(),
            at: new Date(),
          });
        }
      }),
    );
  }
  async function door(n: number) {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < n / clients; i++) {
          const payer = pick(people);
          let payee = pick(people);
          while (payee === payer) payee = pick(people);
          const id = randomUUID();
          const done = await openDoor(
            db,
            {
              door: 'pay',
              id,
              payer,
              payee,
              currency: 'RUB',
              amount: 100n,
              kind: 'transfer',
              description: text,
              at: new Date(),
              rules,
            },
            {
              pinProof: proof,
              call: { name: 'transfer', key: randomUUID(), requestHash: 'h', answer: { receipt: { id } } },
            },
          );
          if (done.outcome !== 'created') throw new Error(`door ${JSON.stringify(done)}`);
        }
      }),
    );
  }
  await bare(400);
  await door(400);
  const rounds = 6;
  const ratios: number[] = [];
  const spent: Record<string, { calls: number; total: number; self: number }> = {};
  for (let round = 0; round < rounds; round++) {
    // Each round: the bare transfers, then the door, each counted on its own.
    await resetFunctionTimes(bench.url);
    await bare(calls / rounds);
    const open = await functionTimes(bench.url);
    await resetFunctionTimes(bench.url);
    await door(calls / rounds);
    const paid = await functionTimes(bench.url);
    ratios.push(paid.ledger_pay!.totalUsPerCall / open.ledger_open!.totalUsPerCall);
    for (const [name, t] of [...Object.entries(open), ...Object.entries(paid)]) {
      spent[name] ??= { calls: 0, total: 0, self: 0 };
      const sum = spent[name];
      sum.calls += t.calls;
      sum.total += t.totalUsPerCall * t.calls;
      sum.self += t.selfUsPerCall * t.calls;
    }
  }
  for (const [name, t] of Object.entries(spent).sort(([, a], [, b]) => b.self - a.self))
    console.log(
      `  ${name.padEnd(28)} calls ${String(t.calls).padStart(7)}  total ${Math.round(t.total / t.calls)} µs  self ${Math.round(t.self / t.calls)} µs`,
    );
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(
    `ledger_pay / ledger_open per round: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${((sorted[2]! + sorted[3]!) / 2).toFixed(2)}x`,
  );
} finally {
  await db.close();
  await bench.drop();
}
