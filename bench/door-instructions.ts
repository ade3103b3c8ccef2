/**
 * The door's cost in instructions: what bench/door.ts measures in time, counted by valgrind's callgrind,
 * which gives the same count for the same calls whatever else the machine is doing (docs/performance.md,
 * 'Counting instructions'). A PostgreSQL of its own in a temporary directory (the database's binaries,
 * fsync off) gets the schema and 2,000 seeded people (`--people`), then is stopped; single-user backends under
 * callgrind run the same P2P payments through `ledger_pay` and transfers through `ledger_open`, 50
 * and then 350 of them on copies of the same data. The difference over 300 calls is one call's count,
 * warm plans and caches, commit included, the wire protocol not.
 *   node bench/door-instructions.ts [--people=2000] [--variant=change.sql ...]
 * Each `--variant` file is run on the seeded database first (a change under test: a function
 * replaced, a constraint dropped); the counts are printed beside those of the code as it is.
 * Needs valgrind and PostgreSQL's server binaries (`pg_config --bindir`); as root it runs them as the
 * `postgres` user. `npm run bench` runs it too (the costs' step, bench/costs.ts).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { levelRules, levelRulesJson } from '../apps/server/src/policy/levels.ts';
import { asPostgres, type PrivateCluster, pgBin, privateCluster, runAsPostgres } from './cluster.ts';
import { seedPayers } from './ledger.ts';
import { randomPair, seeded } from './lib.ts';

const WARM = 50;
const COUNTED = 300;
const quiet = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

/** A seeded cluster (the schema and `seedPayers`' people), stopped, its data directory kept. */
async function seed(population: number, change: string | null) {
  const cluster = await privateCluster(quiet.map((setting) => `-c ${setting}`));
  try {
    const db = await openPostgres(cluster.url(), 1);
    try {
      await migrate(db);
      const payers = await seedPayers(db, population, 1_000_000n);
      if (change) await db.exec(readFileSync(change, 'utf8'));
      await db.exec('VACUUM ANALYZE');
      return { cluster, ...payers };
    } finally {
      await db.close();
      cluster.stop();
    }
  } catch (error) {
    cluster.remove();
    throw error;
  }
}

/** A text as an SQL string literal. */
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `count` calls of one door as single-user statements: a prepared statement, then its executions. */
function script(door: 'pay' | 'open', count: number, accounts: string[], people: string[]): string {
  const random = seeded(7);
  const text = {
    debit: { ru: 'Перевод: Бенч Т.', en: 'Transfer to Бенч Т.' },
    credit: { ru: 'Перевод: Бенч Т.', en: 'Transfer from Бенч Т.' },
  };
  const lines =
    door === 'pay'
      ? [
          `PREPARE call(uuid, uuid, uuid, text, jsonb) AS SELECT outcome FROM ledger_pay(call => jsonb_build_object(
            'id', $1, 'payer', $2, 'payee', $3, 'currency', 'RUB', 'amount', 100, 'kind', 'transfer',
            'description', ${quoted(JSON.stringify(text))}::jsonb, 'at', now(), 'call', 'transfer', 'key', $4,
            'request_hash', 'Swoj6nZGxiw9YCFTVgJM5Oeoq-t8VLfPUdqFTyNLqAA', 'answer', $5),
            rules => ${quoted(levelRulesJson(levelRules()))}::jsonb, pin_proof => '\\x01')`,
        ]
      : [
          `PREPARE call(uuid, uuid, text) AS SELECT outcome FROM ledger_open($1, $2, 100, 'RUB', 'transfer',
            false, $3, NULL, NULL, ${quoted(JSON.stringify(text))}::jsonb, now())`,
        ];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    if (door === 'pay') {
      const [payer, payee] = randomPair(random, people);
      const answer = {
        status: 'success',
        message: 'Перевод выполнен',
        receipt: {
          id,
          kind: 'transfer',
          status: 'complete',
          amount: '1.00',
          currency_code: 'RUB',
          counterparty: 'Бенч Т.',
        },
      };
      lines.push(
        `EXECUTE call('${id}', '${payer}', '${payee}', '${randomUUID()}', ${quoted(JSON.stringify(answer))})`,
      );
    } else {
      const [debit, credit] = randomPair(random, accounts);
      lines.push(`EXECUTE call('${debit}', '${credit}', 'transfer:${id}')`);
    }
  }
  // Single-user mode ends a statement at a newline.
  return `${lines.map((l) => l.replace(/\s*\n\s*/g, ' ')).join('\n')}\n`;
}

/** Instructions of a single-user backend that runs `sql` on a copy of `seededDir`; answers its output too. */
function counted(
  root: string,
  seededDir: string,
  label: string,
  sql: string,
): { instructions: number; output: string } {
  const dir = join(root, `run-${label}`);
  // Copied as the user that owns the data directory.
  runAsPostgres('cp', ['-a', seededDir, dir]);
  const out = join(root, `callgrind-${label}`);
  const [c, a] = asPostgres('valgrind', [
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    join(pgBin(), 'postgres'),
    '--single',
    '-D',
    dir,
    ...quiet.flatMap((setting) => ['-c', setting]),
    'postgres',
  ]);
  const output = execFileSync(c, a, { input: sql, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (!totals) throw new Error(`no totals in ${out}`);
  rmSync(dir, { recursive: true });
  return { instructions: Number(totals[1]), output };
}

export interface DoorInstructions {
  /** Instructions per P2P payment through `ledger_pay`, warm. */
  pay: number;
  /** Instructions per bare transfer through `ledger_open`, warm. */
  open: number;
  people: number;
}

/** Both doors' instructions per call with `population` people, after `change` (an SQL file) if given. */
export async function doorInstructions(
  population: number,
  change: string | null = null,
): Promise<DoorInstructions> {
  const root = mkdtempSync(join(tmpdir(), 'door-instructions-'));
  chmodSync(root, 0o777);
  let cluster: PrivateCluster | null = null;
  try {
    const seededRun = await seed(population, change);
    cluster = seededRun.cluster;
    const { accounts, people } = seededRun;
    const perCall = { pay: 0, open: 0 };
    for (const door of ['pay', 'open'] as const) {
      const warm = counted(root, cluster.dir, `${door}-warm`, script(door, WARM, accounts, people));
      const all = counted(root, cluster.dir, `${door}-all`, script(door, WARM + COUNTED, accounts, people));
      const created = all.output.match(/outcome = "created"/g)?.length ?? 0;
      if (created !== WARM + COUNTED)
        throw new Error(`${door}: ${created} of ${WARM + COUNTED} calls created`);
      perCall[door] = Math.round((all.instructions - warm.instructions) / COUNTED);
    }
    return { ...perCall, people: population };
  } finally {
    cluster?.remove();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const population = Number(process.argv.find((a) => a.startsWith('--people='))?.split('=')[1] ?? 2000);
  const variants = process.argv
    .filter((a) => a.startsWith('--variant='))
    .map((a) => a.slice('--variant='.length));
  const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')}k`;
  for (const [name, change] of [['as it is', null] as const, ...variants.map((v) => [v, v] as const)]) {
    const { pay, open } = await doorInstructions(population, change);
    console.info(
      `${name.padEnd(40)} ledger_pay ${k(pay)}  ledger_open ${k(open)}  ratio ${(pay / open).toFixed(2)}x`,
    );
  }
}
