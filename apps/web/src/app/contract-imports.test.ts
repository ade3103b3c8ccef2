/**
 * The app reads the contract's types, and values only from its zod-free modules: a value imported
 * from the contract's root brings zod and every schema into that page's JavaScript (an account page
 * grew from 4 KB to 95 KB that way). Test files may import anything; they are not shipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('imports of the contract', () => {
  it('are type-only from its root in every shipped file', () => {
    const offenders = sourceFiles(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const imports = text.match(/import\s+(type\s+)?[^;]*?from\s+'@e-wallet\/contract'/g) ?? [];
      return imports.filter((line) => !/^import\s+type\b/.test(line)).map(() => relative(SRC, file));
    });
    expect(offenders).toEqual([]);
  });
});
