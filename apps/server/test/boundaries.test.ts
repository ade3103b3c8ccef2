/**
 * The server's module boundaries (docs/architecture.md): a module is used through its public face
 * (`modules/<name>/index.ts`) only, and no two modules import each other, directly or around a
 * circle. Read from the source's import lines, so a deep import or a cycle fails here, on any database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import of every source file: the file (relative to src) and what it names. */
function imports(): Array<{ from: string; to: string }> {
  const found: Array<{ from: string; to: string }> = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)) {
      const to = relative(SRC, normalize(join(dirname(file), match[1]!)));
      found.push({ from: relative(SRC, file), to });
    }
  }
  return found;
}

const moduleOf = (path: string) => (path.startsWith('modules/') ? path.split('/')[1]! : null);

describe('module boundaries', () => {
  const all = imports();

  it('reaches another module only through its index.ts', () => {
    const deep = all.filter(({ from, to }) => {
      const target = moduleOf(to);
      return target !== null && moduleOf(from) !== target && to !== `modules/${target}/index.ts`;
    });
    expect(deep.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of all) {
      const a = moduleOf(from);
      const b = moduleOf(to);
      if (a === null || b === null || a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (node: string, path: string[]) => {
      state.set(node, 'open');
      for (const next of edges.get(node) ?? []) {
        if (state.get(next) === 'open')
          cycles.push([...path.slice(path.indexOf(next)), node, next].join(' -> '));
        else if (!state.has(next)) walk(next, [...path, node]);
      }
      state.set(node, 'done');
    };
    for (const node of edges.keys()) if (!state.has(node)) walk(node, []);
    expect(cycles).toEqual([]);
  });

  it('moves money only through the ledger, and keys only through the one store', () => {
    // Outside comments: a door's call or a write of the ledger's tables anywhere but ledger/; the keys'
    // table named anywhere (the money calls reach it through idempotency.sql's functions).
    const door =
      /\b(FROM|SELECT)\s+(ledger_pay|ops_refund|ledger_open|ledger_settle|ledger_move)\s*\(|\b(INSERT INTO|UPDATE|DELETE FROM)\s+ledger_\w+/;
    const outside = sourceFiles(SRC).flatMap((file) => {
      const path = relative(SRC, file);
      if (path.startsWith('db/')) return [];
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const problems: string[] = [];
      if (!path.startsWith('ledger/') && door.test(code)) problems.push(`${path}: moves money`);
      if (/idempotency_keys/.test(code)) problems.push(`${path}: reads the keys' table`);
      return problems;
    });
    expect(outside).toEqual([]);
  });
});
