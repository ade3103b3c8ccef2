/**
 * Every link of README.md and docs/ reaches its file, and its heading where it names one: the docs were
 * split by topic, and a moved heading must not leave a dead link behind.
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, filesUnder, ROOT, read } from './repo.ts';

/** Notes other branches of issue 54 write, linked from the index before they land: remove each as it does. */
const WRITTEN_ELSEWHERE = new Set([
  'docs/decisions/antifraud-paths.md',
  'docs/decisions/recovery-and-four-eyes.md',
  'docs/decisions/history-and-trust.md',
  'docs/decisions/screens-before-the-pin.md',
  'docs/decisions/closing-and-export.md',
  'docs/decisions/codebase.md',
  'docs/decisions/money-door.md',
  'docs/performance-door.md',
  'docs/scaling.md',
]);

describe('links in README.md and docs/', () => {
  const pages = ['README.md', ...filesUnder('docs').filter((path) => path.endsWith('.md'))];

  it('reach their file and heading', () => {
    const broken = pages.flatMap((page) => {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, link]) => {
        if (/^[a-z]+:/.test(link)) return [];
        const [file, anchor] = link.split('#');
        const target = file
          ? normalize(join(dirname(page), file))
              .split('\\')
              .join('/')
          : page;
        if (!existsSync(join(ROOT, target))) return WRITTEN_ELSEWHERE.has(target) ? [] : [`${page}: ${link}`];
        if (!anchor || !target.endsWith('.md')) return [];
        return anchorsOf(read(target)).has(anchor) ? [] : [`${page}: ${link}`];
      });
    });
    expect(broken).toEqual([]);
  });

  it('keep the README within a screen or two', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(150);
  });

  it('keep each decisions note under 15 kB', () => {
    const large = filesUnder('docs/decisions').filter((path) => Buffer.byteLength(read(path)) >= 15_000);
    expect(large).toEqual([]);
  });
});
