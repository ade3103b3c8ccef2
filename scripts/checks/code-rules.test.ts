/**
 * Rules of the codebase a reviewer would otherwise count by hand: no source file over 500 lines, docs
 * cited by file and heading anchor (never by a section's number, which moves), and no `any` in the
 * back office's routes, and no cycle of runtime imports in the server. Each holds with no exception: a file that breaks one is mended, not excused.
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { anchorsOf, filesUnder, ROOT, read } from './repo.ts';

const SOURCE_FOLDERS = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
const CODE = /\.(ts|tsx|js|mjs|cjs|sql|css|html|sh)$/;
/** Tests (their own folders and files) and generated data are not held to the size. */
const TESTS_AND_DATA = /(^|\/)(test|tests)\/|\.(test|spec)\.[jt]sx?$|^bench\/results\//;

const MAX_LINES = 500;

const sources = filesUnder(...SOURCE_FOLDERS).filter((path) => CODE.test(path));

describe('file sizes', () => {
  const lengths = new Map(sources.map((path) => [path, read(path).split('\n').length - 1]));

  it(`no source file outside tests and generated data is over ${MAX_LINES} lines`, () => {
    const long = sources.filter((path) => !TESTS_AND_DATA.test(path) && lengths.get(path)! > MAX_LINES);
    expect(long.map((path) => `${path}: ${lengths.get(path)} lines`)).toEqual([]);
  });
});

describe('citations of docs/', () => {
  it('no comment cites a section by its number', () => {
    const numbered = sources.flatMap((path) =>
      read(path)
        .split('\n')
        .flatMap((line, index) =>
          /\bsections? \d/i.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(numbered).toEqual([]);
  });

  it('no file cites the single decisions page, now docs/decisions/<topic>.md', () => {
    const old = sources.filter((path) => /decisions\.md/.test(read(path)));
    expect(old).toEqual([]);
  });

  it('every docs/<file>.md#<anchor> cited names a heading of that file', () => {
    const anchors = new Map<string, Set<string>>();
    const broken = sources.flatMap((path) =>
      [...read(path).matchAll(/\bdocs\/([\w/-]+\.md)#([\p{L}\p{N}_-]+)/gu)].flatMap(
        ([cited, file, anchor]) => {
          const doc = join(ROOT, 'docs', file);
          if (!existsSync(doc)) return [`${path}: ${cited} (no such file)`];
          if (!anchors.has(file)) anchors.set(file, anchorsOf(read(`docs/${file}`)));
          return anchors.get(file)!.has(anchor) ? [] : [`${path}: ${cited}`];
        },
      ),
    );
    expect(broken).toEqual([]);
  });
});

describe("the back office's routes", () => {
  it('type nothing as any', () => {
    const counts: Record<string, number> = {};
    for (const path of filesUnder('apps/server/src/ops').filter(
      (file) => /\.ts$/.test(file) && !TESTS_AND_DATA.test(file),
    )) {
      const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true);
      let count = 0;
      const visit = (node: ts.Node) => {
        if (node.kind === ts.SyntaxKind.AnyKeyword) count++;
        ts.forEachChild(node, visit);
      };
      visit(source);
      if (count) counts[path] = count;
    }
    expect(counts).toEqual({});
  });
});

/** The files a server file imports at run time (type-only imports and exports leave no trace in the output). */
function runtimeImports(path: string): string[] {
  const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, false);
  const targets: string[] = [];
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement);
    if (!isImport && !ts.isExportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from) || !from.text.startsWith('.')) continue;
    if (isImport) {
      const clause = statement.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause?.isTypeOnly ||
        (!clause?.name && named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly));
      if (typeOnly) continue;
    } else if (statement.isTypeOnly) continue;
    targets.push(normalize(join(dirname(path), from.text)));
  }
  return targets;
}

describe("the server's imports", () => {
  // A cycle makes a module's top-level code run before what it imports exists (onRelease undefined at load).
  it('make no cycle at run time', () => {
    const files = filesUnder('apps/server/src').filter(
      (path) => /\.ts$/.test(path) && !TESTS_AND_DATA.test(path),
    );
    const edges = new Map(files.map((path) => [path, runtimeImports(path)]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (path: string, trail: string[]) => {
      if (state.get(path) === 'done') return;
      if (state.get(path) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '));
        return;
      }
      state.set(path, 'open');
      for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
      state.set(path, 'done');
    };
    for (const path of files) visit(path, []);
    expect(cycles).toEqual([]);
  });
});
