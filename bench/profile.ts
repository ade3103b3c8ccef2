/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, written by `npm run bench -- --cpu-prof` into
 * bench/results/profiles): the functions with the most self time and the files they live in.
 *   node bench/profile.ts bench/results/profiles/<file>.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export function topFunctions(file: string, top = 25): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
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
  const pct = (n: number) => `${((n / total) * 100).toFixed(1).padStart(5)}%`;
  const lines = ['self time by function:'];
  for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(hits)} ${key}`);
  lines.push('self time by package or folder:');
  for (const [key, hits] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
    lines.push(`${pct(hits)} ${key}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node bench/profile.ts <file.cpuprofile> [top]');
  console.info(topFunctions(file, Number(process.argv[3] ?? 25)).join('\n'));
}
