/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, written by `npm run bench -- --cpu-prof` into
 * bench/results/profiles): the functions with the most self time and the files they live in, as
 * shares of the busy (not idle) samples.
 *   node bench/profile.ts bench/results/profiles/<file>.cpuprofile [top] [--last=<seconds>]
 * A server's profile spans its whole life: the bench's set-up (registering users) as well as the
 * load. `--last=20` keeps the samples of the 20 s before the profile's end, where a load run ends.
 * The profiler samples wall time: a function that blocks in a system call (a socket write) is
 * charged with the time the thread waited for the CPU, too, while PostgreSQL or autocannon ran.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Samples per node: all of them, or those of the last `lastSeconds` of the profile. */
function hitsOf(profile: Profile, lastSeconds: number | null): Map<number, number> {
  const hits = new Map<number, number>();
  const from = lastSeconds === null ? -Infinity : profile.endTime - lastSeconds * 1e6;
  let at = profile.endTime - profile.timeDeltas.reduce((sum, d) => sum + d, 0);
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  return hits;
}

export function topFunctions(file: string, top = 25, lastSeconds: number | null = null): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const sampled = hitsOf(profile, lastSeconds);
  const isIdle = (n: ProfileNode) => n.callFrame.functionName === '(idle)';
  const busy = profile.nodes.filter((n) => !isIdle(n));
  const samplesOf = (nodes: ProfileNode[]) => nodes.reduce((sum, n) => sum + (sampled.get(n.id) ?? 0), 0);
  const total = samplesOf(busy) || 1;
  const idle = samplesOf(profile.nodes.filter(isIdle));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of busy) {
    const hits = sampled.get(node.id) ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'npm:');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    const pkg = url.includes('/node_modules/')
      ? `npm:${/\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]}`
      : url.startsWith('file://')
        ? url.replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/').replace(/\/[^/]+$/, '')
        : url || functionName;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  // Total time (the function and everything it called), each sample counted once per function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const inclusive = new Map<string, number>();
  for (const [id, hits] of sampled) {
    if (isIdle(byId.get(id)!)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!url.startsWith('file://')) continue;
      seen.add(
        `${functionName || '(anonymous)'} ${url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'npm:')}:${lineNumber + 1}`,
      );
    }
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
  }
  const pct = (n: number) => `${((n / total) * 100).toFixed(1).padStart(5)}%`;
  const window = lastSeconds === null ? 'the whole profile' : `its last ${lastSeconds} s`;
  const lines = [
    `${total + idle} samples of ${window}, ${((idle / (total + idle)) * 100).toFixed(1)}% idle; shares of the busy ones`,
    'self time by function:',
  ];
  for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(hits)} ${key}`);
  lines.push('total time by function (with what it called):');
  for (const [key, hits] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(hits)} ${key}`);
  lines.push('self time by package or folder:');
  for (const [key, hits] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
    lines.push(`${pct(hits)} ${key}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const last = args.find((a) => a.startsWith('--last='));
  const [file, top] = args.filter((a) => !a.startsWith('--'));
  if (!file) throw new Error('usage: node bench/profile.ts <file.cpuprofile> [top] [--last=<seconds>]');
  console.info(topFunctions(file, Number(top ?? 25), last ? Number(last.slice(7)) : null).join('\n'));
}
