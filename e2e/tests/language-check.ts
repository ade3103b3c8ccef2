/**
 * The finish checks of every screen
 * (docs/decisions/language-and-format.md#language-numbers-time-and-controls): no text of the other language,
 * amounts in the language's format, and axe's rules with target-size (24 px) on.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type ScreenLanguage = 'ru' | 'en';

/**
 * Latin words a Russian screen may show: currency codes, the product's name, the usual
 * abbreviations, and the names of the languages in their own language (the switch).
 */
export const RUSSIAN_SCREEN_LATIN = new Set([
  'RUB',
  'USD',
  'EUR',
  'IDR',
  'E-Wallet',
  'PIN',
  'QR',
  'SMS',
  'PDF',
  'CSV',
  'JSON',
  'English',
  'E-mail',
  'ID',
  'PNG',
  'JPG',
  'JPEG',
  // 'Push-уведомления': the Russian word for them.
  'Push',
]);

/** Cyrillic an English screen may show: the language's own name on the switch. */
export const ENGLISH_SCREEN_CYRILLIC = ['Русский'];

/** The text a person can see: rendered text, and the labels, placeholders and titles of visible elements. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const element of document.body.querySelectorAll<HTMLElement>(
      '[aria-label],[placeholder],[title],img[alt]',
    )) {
      if (!element.checkVisibility()) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    for (const input of document.body.querySelectorAll<HTMLInputElement>('input:not([type=hidden])')) {
      // A checkbox's or radio's value is never shown; a password is not text.
      if (!input.checkVisibility() || ['password', 'checkbox', 'radio'].includes(input.type)) continue;
      parts.push(input.value);
    }
    return parts.join('\n');
  });
}

/**
 * The text without the person's own words (`data`: names, e-mail, the browser's name), which stay as
 * typed whatever the language, and without e-mail addresses, links and ids, which are no language.
 */
function withoutData(text: string, data: string[]): string {
  let rest = text.replace(/\u2011/g, '-');
  for (const word of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(word).join(' ');
  return rest
    .replace(/\S+@\S+/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ' ');
}

/** What on the screen is in the other language, once the person's own words are taken out. */
export function foreignWords(text: string, language: ScreenLanguage, data: string[] = []): string[] {
  let rest = withoutData(text, data);
  if (language === 'en') {
    for (const word of ENGLISH_SCREEN_CYRILLIC) rest = rest.split(word).join(' ');
    return [...new Set(rest.match(/[А-Яа-яЁё][А-Яа-яЁё-]*/g) ?? [])];
  }
  // Whole words only: letters inside an id or a code ("3f2a-9c") are not words.
  const words = rest.match(/(?<![A-Za-z0-9])[A-Za-z][A-Za-z-]*[A-Za-z](?![A-Za-z0-9])/g) ?? [];
  return [...new Set(words.filter((word) => !RUSSIAN_SCREEN_LATIN.has(word)))];
}

/**
 * Amounts written with the other language's separators: on a Russian screen "12.31" or "1,000.00";
 * on an English one "12,31". Dates (24.11.2026) and times are not amounts.
 */
export function wrongAmounts(text: string, language: ScreenLanguage): string[] {
  const found =
    language === 'ru'
      ? text.match(/(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d.])/g)
      : text.match(/(?<![\d.,])\d+(?:[\s\u00a0]\d{3})*,\d{2}(?![\d,])/g);
  return [...new Set(found ?? [])];
}

export async function expectScreenInLanguage(page: Page, language: ScreenLanguage, data: string[] = []) {
  const text = await visibleText(page);
  const where = `${language} ${new URL(page.url()).pathname}`;
  // Soft: one run lists every screen's findings.
  expect.soft(foreignWords(text, language, data), `words of the other language on ${where}`).toEqual([]);
  expect
    .soft(
      wrongAmounts(withoutData(text, data), language),
      `amounts in the other language's format on ${where}`,
    )
    .toEqual([]);
}

/** Axe's WCAG rules and target-size (WCAG 2.2, 24 by 24 px) on; serious and critical findings fail. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .options({ rules: { 'target-size': { enabled: true } } })
    .analyze();
  const failed = results.violations.filter(
    (v) => v.id === 'target-size' || v.impact === 'serious' || v.impact === 'critical',
  );
  expect
    .soft(
      failed.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe violations (target-size included) on ${new URL(page.url()).pathname}`,
    )
    .toEqual([]);
}

/**
 * On the phone every control is at least 24 by 24 px itself, not only by the spacing around it
 * that axe's rule also accepts; a link inside a sentence is the one exception (WCAG 2.5.8 inline).
 */
export async function expectThumbTargets(page: Page) {
  const small = await page.evaluate(() => {
    const found: string[] = [];
    const selector =
      'a[href], button, [role="button"], [role="tab"], summary, select, input:not([type=hidden])';
    for (const element of document.body.querySelectorAll<HTMLElement>(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      if (element.closest('[inert], [aria-hidden="true"]')) continue;
      // A checkbox or radio is hit through its label.
      const input = element as HTMLInputElement;
      const target = ['checkbox', 'radio'].includes(input.type) ? (input.labels?.[0] ?? element) : element;
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const inline =
        element.tagName === 'A' &&
        getComputedStyle(element).display === 'inline' &&
        (element.parentElement?.textContent?.trim().length ?? 0) > (element.textContent?.trim().length ?? 0);
      if (inline) continue;
      if (box.width < 24 || box.height < 24) {
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
        found.push(
          `${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return found;
  });
  expect.soft(small, `controls under 24 px on ${new URL(page.url()).pathname}`).toEqual([]);
}
