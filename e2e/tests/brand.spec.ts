/**
 * Brand variants (docs/product.md 'Auth layout', 'Profile panel', 'Policy block'): the grok build,
 * served by a server started with BRAND=grok, shows its brand image and, in the profile panel,
 * the policy block: four PDFs that open in a new tab and are real PDF files, the operating
 * company with its registration number and the restricted regions. The default build shows the
 * wallet icon with the text E-Wallet and no policy block.
 */
import { mkdirSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { defaultBuild, grokBuild, type RunningServer, startServer } from './brand-server.ts';
import { openProfilePanel, registerPerson, signIn } from './wallet-fixtures.ts';

const DOCUMENTS = [
  { id: 'aml-kyc-policy', ru: 'Политика AML и KYC', en: 'AML & KYC policy' },
  { id: 'cookies-policy', ru: 'Политика использования cookie', en: 'Cookies policy' },
  { id: 'privacy-policy', ru: 'Политика конфиденциальности', en: 'Privacy policy' },
  { id: 'terms-of-use', ru: 'Условия использования', en: 'Terms of use' },
];

async function shot(page: Page, name: string, width: number) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/brand-${name}-${width}.png`, fullPage: true });
}

const grok = base.extend<object, { brandServer: RunningServer }>({
  brandServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startServer({ webDist: await grokBuild(), env: { BRAND: 'grok' } });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ brandServer }, use) => use(brandServer.url),
});

const plain = base.extend<object, { brandServer: RunningServer }>({
  brandServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startServer({ webDist: defaultBuild() });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ brandServer }, use) => use(brandServer.url),
});

grok.describe('grok build', () => {
  grok(
    'the auth layout shows the grok brand image instead of the wallet icon',
    async ({ page }, testInfo) => {
      await page.goto('/auth');
      // The header logo on phones, the brand column's on desktop: whichever the layout shows.
      const logo = page.locator('.logo:visible').first();
      await expect(logo).toHaveJSProperty('tagName', 'IMG');
      await expect(logo).toHaveAttribute('alt', 'grok wallet');
      await expect(logo).toHaveJSProperty('complete', true);
      expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
      await expect(page.locator('.logo__text')).toHaveCount(0);
      await expect(page).toHaveTitle('grok wallet');
      await shot(page, 'grok-auth', testInfo.project.use.viewport?.width ?? 0);
      const manifest = await (await page.request.get('/manifest.webmanifest')).json();
      expect(manifest).toMatchObject({ name: 'grok wallet', short_name: 'grok', theme_color: '#111a33' });
    },
  );

  grok(
    'the profile panel shows the policy block with working PDFs, the company and the regions',
    async ({ page, request }, testInfo) => {
      const person = await registerPerson(request);
      await signIn(page, person);
      await openProfilePanel(page);
      const block = page.getByTestId('policy-block');
      await block.scrollIntoViewIfNeeded();
      await expect(block).toBeVisible();

      for (const document of DOCUMENTS) {
        const link = block.getByRole('link', { name: new RegExp(document.ru) });
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', /noopener/);
        const href = await link.getAttribute('href');
        expect(href).toBe(`/policy/grok/${document.id}.ru.pdf`);
        const pdf = await request.get(href!);
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()['content-type']).toBe('application/pdf');
        const body = await pdf.body();
        expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(body.subarray(-6).toString('latin1')).toContain('%%EOF');
      }

      await expect(page.getByTestId('policy-company')).toHaveText(
        'Оператор: Grok Pay Ltd, регистрационный номер HE 452187',
      );
      const regions = page.getByTestId('policy-regions').getByRole('listitem');
      await expect(regions).toContainText([
        'США',
        'Российская Федерация',
        'Иран',
        'КНДР (Северная Корея)',
        'Сирия',
      ]);
      await expect(regions.filter({ hasText: 'Крым' })).toHaveCount(1);
      await expect(regions.filter({ hasText: 'Донецкая область' })).toHaveCount(1);
      await expect(regions.filter({ hasText: 'Луганская область' })).toHaveCount(1);

      // A click opens the document in a new tab and leaves the wallet where it was.
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        block.getByRole('link', { name: /Условия использования/ }).click(),
      ]);
      await expect.poll(() => tab.url()).toContain('/policy/grok/terms-of-use.ru.pdf');
      await tab.close();
      await expect(page).toHaveURL(/\/$/);
      await block.scrollIntoViewIfNeeded();
      await shot(page, 'grok-ru', testInfo.project.use.viewport?.width ?? 0);
    },
  );

  grok(
    'in English the documents, company and regions are the English ones',
    async ({ page, request }, testInfo) => {
      const person = await registerPerson(request);
      await page.goto('/auth');
      await page.evaluate(() => localStorage.setItem('e-wallet-language', 'en'));
      await signIn(page, person);
      await openProfilePanel(page);
      const block = page.getByTestId('policy-block');
      await block.scrollIntoViewIfNeeded();
      for (const document of DOCUMENTS) {
        await expect(block.getByRole('link', { name: new RegExp(document.en) })).toHaveAttribute(
          'href',
          `/policy/grok/${document.id}.en.pdf`,
        );
      }
      const pdf = await request.get('/policy/grok/privacy-policy.en.pdf');
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      await expect(page.getByTestId('policy-company')).toHaveText(
        'Operator: Grok Pay Ltd, registration number HE 452187',
      );
      await expect(page.getByTestId('policy-regions').getByRole('listitem')).toContainText([
        'United States of America',
        'Russian Federation',
      ]);
      await shot(page, 'grok-en', testInfo.project.use.viewport?.width ?? 0);
    },
  );
});

plain.describe('default build', () => {
  plain('the auth layout shows the wallet icon with the text E-Wallet', async ({ page }, testInfo) => {
    await page.goto('/auth');
    const logo = page.locator('.logo:visible').first();
    await expect(logo.locator('.logo__text')).toHaveText('E-Wallet');
    await expect(logo.locator('.logo__mark svg')).toBeVisible();
    await expect(page.locator('img.logo--image')).toHaveCount(0);
    await shot(page, 'default-auth', testInfo.project.use.viewport?.width ?? 0);
    await expect(page).toHaveTitle('E-Wallet');
  });

  plain(
    'the profile panel has no policy block and the bundle no policy texts',
    async ({ page, request }, testInfo) => {
      const person = await registerPerson(request);
      await signIn(page, person);
      await openProfilePanel(page);
      await expect(page.getByTestId('policy-block')).toHaveCount(0);
      await expect(page.locator('a[href^="/policy/"]')).toHaveCount(0);
      await expect(page.locator('[data-slot="policy"]')).toHaveCount(0);
      await expect(page.getByText('Grok Pay Ltd')).toHaveCount(0);
      await page.getByTestId('profile-name').scrollIntoViewIfNeeded();
      await shot(page, 'default', testInfo.project.use.viewport?.width ?? 0);
    },
  );
});
