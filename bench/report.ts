/**
 * The benchmark's report: a row a measurement beside its same-run baseline, printed as a table and
 * written to bench/results (latest.json and latest.md; the costs', the live streams' and a --big
 * run's results also apart).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadResult, machine, type parseOptions, ROOT } from './lib.ts';

export interface Row {
  measurement: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: boolean | null;
}

export const pct = (r: number) => `${Math.round(r * 100)}%`;

/** PostgreSQL's CPU per ledger transfer, and the ledger module's (the bench's process), where measured. */
export function databaseText(result: {
  databaseCpuUsPerTransfer?: number;
  nodeCpuUsPerTransfer?: number;
}): string {
  const database =
    result.databaseCpuUsPerTransfer === undefined
      ? ''
      : `, PostgreSQL ${result.databaseCpuUsPerTransfer} µs/transfer`;
  const node =
    result.nodeCpuUsPerTransfer === undefined
      ? ''
      : `, ledger module ${result.nodeCpuUsPerTransfer} µs/transfer`;
  return database + node;
}

/** The server's CPU per request and PostgreSQL's, where they were measured, and the load generator's. */
export function cpuText(result: LoadResult): string {
  const server =
    result.serverCpuUsPerRequest === undefined
      ? ''
      : `, server CPU ${result.serverCpuUsPerRequest} µs/request`;
  const database =
    result.databaseCpuUsPerRequest === undefined
      ? ''
      : `, PostgreSQL ${result.databaseCpuUsPerRequest} µs/request`;
  return `${server}${database}, load generator ${result.loadCpuUsPerRequest} µs/request`;
}

export function writeReport(run: {
  rows: Row[];
  results: Record<string, unknown>;
  errors: Record<string, string>;
  loadDuring: Record<string, number>;
  options: ReturnType<typeof parseOptions>;
  started: number;
}): void {
  const { rows, results, errors, loadDuring, options, started } = run;
  const seconds = options.seconds;
  const header = ['measurement', 'this run', 'baseline (same run)', 'ratio', 'goal', ''];
  const table = [
    header,
    ...rows.map((r) => [
      r.measurement,
      r.value,
      r.baseline,
      r.ratio,
      r.goal,
      r.met === null ? '' : r.met ? 'met' : 'MISSED',
    ]),
  ];
  const markdown = [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...table.slice(1).map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n');
  const info = machine();
  const summary = {
    at: new Date().toISOString(),
    mode: options.quick ? 'quick' : options.big ? 'full+big' : 'full',
    seconds: Math.round((Date.now() - started) / 1000),
    machine: info,
    loadAverageAtEnd: info.loadAverage,
    loadDuring,
    note:
      info.loadAverage[0]! > info.cores
        ? `the machine was busy (load ${info.loadAverage[0]} on ${info.cores} cores): absolute numbers are low and noisy; ratios are fairer but still skewed`
        : 'the machine was quiet',
    options: { clients: options.clients, seconds, quick: options.quick, big: options.big },
    rows,
    results,
    errors,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(ROOT, 'bench/results/latest.md'), `${markdown}\n`);
  // The opt-in 10-million-transfer run takes long: its last result is kept apart from the other runs'.
  if (results.big)
    writeFileSync(join(ROOT, 'bench/results/big.json'), `${JSON.stringify(summary, null, 2)}\n`);
  // The machine-independent costs too, so the last count of bytes and statements stays beside any run.
  if (results.costs)
    writeFileSync(join(ROOT, 'bench/results/costs.json'), `${JSON.stringify(summary, null, 2)}\n`);
  // The live streams' run too (docs/performance.md, "The live wallet").
  if (results.live)
    writeFileSync(join(ROOT, 'bench/results/live.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.info(
    `\nE-Wallet benchmarks (${summary.mode}), ${info.cores} x ${info.cpu}, ${info.memoryGiB} GiB, Node ${info.node}; load average ${info.loadAverage.join(' ')}; ${summary.seconds} s\n`,
  );
  console.info(markdown);
  console.info(`\n${summary.note}\nwritten: bench/results/latest.json, bench/results/latest.md`);
}
