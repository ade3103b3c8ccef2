/**
 * PostgreSQL's time per call in the person's door (`ledger_pay`, a P2P payment with a PIN proof and an
 * Idempotency-Key) beside a bare ledger transfer (`ledger_open`), driven in alternating rounds from
 * one process on one database, so both meet the same machine (pg_stat_user_functions, self and total
 * time per function). What the full run's P2P row measures through HTTP, without HTTP. Beside them, in
 * the same rounds: the antifraud check every outgoing payment passes before its door (timed by the
 * client: a read until the instance knows the person, then none), and then the door again for people
 * whose rounding goal takes a round-up.
 *   node bench/door.ts [--calls=3000] [--clients=4] [--people=2000]
 *   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { openDoor, transfer } from '../apps/server/src/ledger/index.ts';
import { assessCall } from '../apps/server/src/modules/antifraud/index.ts';
import { levelRules, levelRulesJson } from '../apps/server/src/policy/levels.ts';
import { seedPayers } from './ledger.ts';
import {
  freshDatabase,
  functionTimes,
  type Options,
  randomPair,
  resetFunctionTimes,
  seeded,
  trackFunctions,
} from './lib.ts';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const calls = arg('calls', 3000);
const clients = arg('clients', 4);
const population = arg('people', 2000);
const options = {
  adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
} as Options;

const bench = await freshDatabase(options, 'door');
await trackFunctions(options, bench);
const db = await openPostgres(bench.url, clients);
try {
  await migrate(db);
  const { accounts, people } = await seedPayers(db, population, 1_000_000n);
  const phones = new Map(
    (await db.query<{ id: string; phone: string }>('SELECT id, phone FROM users')).rows.map((r) => [
      r.id,
      r.phone,
    ]),
  );
  // The check as a development server asks it (its signs on), with the sandbox fraud database.
  const ctx = { db, clock: { now: () => new Date() }, config: loadConfig({ WALLET_ENV: 'development' }) };
  await db.exec('ANALYZE');
  const rules = levelRulesJson(levelRules());
  const random = seeded(7);
  const proof = Buffer.from([1]);
  const text = { debit: { ru: '-', en: '-' }, credit: { ru: '-', en: '-' } };

  async function bare(n: number) {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < n / clients; i++) {
          const [debit, credit] = randomPair(random, accounts);
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
          const [payer, payee] = randomPair(random, people);
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
  /** The antifraud check of `n` payments, as the pipeline asks it: wall µs per check. */
  async function check(n: number): Promise<number> {
    const begin = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = 0; i < n / clients; i++) {
          const [payer, payee] = randomPair(random, people);
          const held = await assessCall(
            ctx as unknown as AppContext,
            payer,
            {
              payee: { userId: payee, phone: phones.get(payee)!, label: '-' },
              amount: 100n,
              currency: 'RUB',
              sessionId: null,
              language: 'ru',
            },
            { callName: 'transfer', holdable: true },
            async () => {},
          );
          if (held) throw new Error(`check held ${JSON.stringify(held)}`);
        }
      }),
    );
    // Clients run side by side: the time of one check is the wall time times the clients over the checks.
    return Number(process.hrtime.bigint() - begin) / 1000 / (n / clients);
  }
  /**
   * The pool's backends report their counts: a backend flushes at a transaction's end once a second
   * has passed since its last report, so after a pause each one is given a statement.
   */
  async function counted() {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await Promise.all(Array.from({ length: clients }, () => db.query('SELECT 1')));
    return functionTimes(bench.url);
  }
  await bare(400);
  await door(400);
  await check(400);
  const rounds = 6;
  const ratios: number[] = [];
  const doors: number[] = [];
  const checks: number[] = [];
  const spent: Record<string, { calls: number; total: number; self: number }> = {};
  for (let round = 0; round < rounds; round++) {
    // Each round: the bare transfers, then the door, each counted on its own.
    await resetFunctionTimes(bench.url);
    await bare(calls / rounds);
    const open = await counted();
    await resetFunctionTimes(bench.url);
    await door(calls / rounds);
    const paid = await counted();
    ratios.push(paid.ledger_pay!.totalUsPerCall / open.ledger_open!.totalUsPerCall);
    doors.push(paid.ledger_pay!.totalUsPerCall);
    checks.push(await check(calls / rounds));
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
  const median = (list: number[]) => {
    const sorted = [...list].sort((x, y) => x - y);
    return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
  };
  console.log(
    `ledger_pay / ledger_open per round: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(2)}x`,
  );
  console.log(
    `antifraud check before the door, µs per payment (client wall time): ${checks.map((c) => Math.round(c)).join(' ')}; median ${Math.round(median(checks))}`,
  );

  // A round-up's cost: everyone rounds up to 10 RUB into a goal, and pays 1 RUB again.
  for (const person of people) {
    const goal = randomUUID();
    await db.query(`SELECT goal_open($1, $2, 'bench', 100000000, 'RUB', NULL, now())`, [goal, person]);
    await db.query('UPDATE savings_goals SET round_up = 10 WHERE id = $1', [goal]);
  }
  const rounded: number[] = [];
  for (let round = 0; round < rounds / 2; round++) {
    await resetFunctionTimes(bench.url);
    await door(calls / rounds);
    rounded.push((await counted()).ledger_pay!.totalUsPerCall);
  }
  console.log(
    `ledger_pay with a round-up, µs: ${rounded.map((r) => Math.round(r)).join(' ')}; median ${Math.round(median(rounded))} beside ${Math.round(median(doors))} without`,
  );
} finally {
  await db.close();
  await bench.drop();
}
