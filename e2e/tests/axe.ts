/**
 * Axe on the screen as it is, one way for every spec: each finding with the elements it names. By
 * default every rule and every impact; `serious` keeps serious and critical findings, `tags` limits
 * the rules (language-check.ts's stricter check, with target size, stays its own).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export interface AxeOptions {
  serious?: boolean;
  tags?: string[];
}

export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const results = await (options.tags ? builder.withTags(options.tags) : builder).analyze();
  return results.violations
    .filter((v) => !options.serious || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export async function expectNoAxeViolations(page: Page, options: AxeOptions = {}): Promise<void> {
  expect(await axeViolations(page, options), 'axe violations').toEqual([]);
}
