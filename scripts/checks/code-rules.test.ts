/**
 * Rules of the codebase a reviewer would otherwise count by hand: no source file over 500 lines, docs
 * cited by file and heading anchor (never by a section's number, which moves), and no `any` in the
 * back office's routes. Each allow-list names today's offenders only: remove an entry when its file
 * is mended (a listed file that complies fails the test until it is removed), never add one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { anchorsOf, filesUnder, ROOT, read } from './repo.ts';

const SOURCE_FOLDERS = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
const CODE = /\.(ts|tsx|js|mjs|cjs|sql|css|html|sh)$/;
/** Tests (their own folders and files) and generated data are not held to the size. */
const TESTS_AND_DATA = /(^|\/)(test|tests)\/|\.(test|spec)\.[jt]sx?$|^bench\/results\//;

const MAX_LINES = 500;
/** Over 500 lines on 27 November 2026, to be split (issue 54). */
const LONG_FILES: Record<string, true> = {
  'apps/server/src/modules/payouts/service.ts': true,
};

/** `any` in the back office's server code on 27 November 2026 (handlers typed `body: any`), per file. */
const OPS_ANY: Record<string, number> = {};

const sources = filesUnder(...SOURCE_FOLDERS).filter((path) => CODE.test(path));

describe('file sizes', () => {
  const lengths = new Map(sources.map((path) => [path, read(path).split('\n').length - 1]));

  it(`no source file outside tests and generated data is over ${MAX_LINES} lines`, () => {
    const long = sources.filter(
      (path) => !TESTS_AND_DATA.test(path) && !LONG_FILES[path] && lengths.get(path)! > MAX_LINES,
    );
    expect(long.map((path) => `${path}: ${lengths.get(path)} lines`)).toEqual([]);
  });

  it('the allow-list names only files still over the size', () => {
    const mended = Object.keys(LONG_FILES).filter((path) => !((lengths.get(path) ?? 0) > MAX_LINES));
    expect(mended, 'remove these from LONG_FILES').toEqual([]);
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
  it('type nothing as any (beyond the allow-list)', () => {
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
      if (count || OPS_ANY[path]) counts[path] = count;
    }
    expect(counts, 'lower OPS_ANY as files are typed; never raise it').toEqual(OPS_ANY);
  });
});
