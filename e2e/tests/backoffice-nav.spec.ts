/**
 * The back office's navigation at 390 and 1440 px (issue 55, item 10; docs/decisions/back-office.md): an
 * administrator, who sees every section, walks each one in Russian and English, light and dark; no item of
 * the menu or of a page's tabs is clipped, broken mid-word or pushed out of the screen. SHOTS_DIR=<dir>
 * keeps the screenshots.
 */
import { expect, type Page } from '@playwright/test';
import { createOperator, expectAccessible, signInOperator, test } from './backoffice-helpers.ts';
import { colorScheme } from './wallet-fixtures.ts';

test.describe.configure({ timeout: 300_000 });

/** Each navigation link whose words do not all show: cut by its box, by the screen, or broken mid-word. */
function clippedLinks(page: Page): Promise<string[]> {
  return page.locator('nav a').evaluateAll((links) =>
    links.flatMap((link) => {
      const box = link.getBoundingClientRect();
      const cut =
        link.scrollWidth > link.clientWidth + 1 ||
        box.left < -0.5 ||
        box.right > document.documentElement.clientWidth + 0.5;
      const broken = [...link.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .some((node) =>
          [...(node.textContent ?? '').matchAll(/\S+/g)].some((word) => {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
          }),
        );
      return cut || broken ? [link.textContent ?? ''] : [];
    }),
  );
}

test('every section of the menu and every tab reads whole, in both languages and both themes', async ({
  page,
  ownServer,
}) => {
  const admin = await createOperator(ownServer, 'admin');
  await signInOperator(page, ownServer, admin);
  const width = page.viewportSize()?.width ?? 0;
  for (const language of ['ru', 'en'] as const) {
    if (language === 'en') await page.getByRole('button', { name: 'Switch to English' }).click();
    const menu = page.getByRole('navigation', { name: language === 'ru' ? 'Разделы' : 'Sections' });
    await expect(menu.getByRole('link').first()).toBeVisible();
    const count = await menu.getByRole('link').count();
    expect(count).toBeGreaterThanOrEqual(10);
    for (const scheme of ['light', 'dark'] as const) {
      await colorScheme(page, scheme);
      for (let index = 0; index < count; index++) {
        const link = menu.getByRole('link').nth(index);
        await link.click();
        await expect(link).toHaveAttribute('aria-current', 'page');
        await expect(page.locator('h1')).toBeVisible();
        expect(await clippedLinks(page), `${language} ${scheme} ${await link.textContent()}`).toEqual([]);
        // A page's tabs mark one of them as current, not each (react-router's NavLink marks any match).
        for (const tabs of await page.locator('nav.tabs').all())
          await expect(tabs.locator('a[aria-current="page"]')).toHaveCount(1);
        if (process.env.SHOTS_DIR && (await page.locator('nav.tabs').count()) > 0)
          await page.screenshot({
            path: `${process.env.SHOTS_DIR}/backoffice-tabs-${index}-${language}-${scheme}-${width}.png`,
          });
        // Nothing wider than the screen: the page never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      await menu.getByRole('link').first().click();
      await expectAccessible(page);
      if (process.env.SHOTS_DIR)
        await page.screenshot({
          path: `${process.env.SHOTS_DIR}/backoffice-nav-${language}-${scheme}-${width}.png`,
        });
    }
  }
});
