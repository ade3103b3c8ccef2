/**
 * What the repository's own checks share: the repository's root, a walk over its source folders that
 * skips what is built or installed, and GitHub's heading anchors (how code cites docs/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Folders never walked: installed, built or written by runs (the same as .gitignore's). */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'dev-dist',
  'data',
  'coverage',
  'test-results',
  'playwright-report',
]);

/** Every file under the given repository folders, as repository-relative paths with forward slashes. */
export function filesUnder(...folders: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED.has(name) || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  for (const folder of folders) walk(join(ROOT, folder));
  return found.sort();
}

export function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file's headings give, a repeated heading numbered as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const anchor = anchorOf(heading[1]);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}
