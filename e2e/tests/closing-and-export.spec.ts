/**
 * Issue 55, items 8 and 10 (docs/decisions/closing-and-export.md): closing the wallet offers the export
 * first, names whom this person protects and ends on a page saying where the money went and by when;
 * and the smaller items: savings in the main navigation, the theme switch that neither wraps nor hides
 * its choice in the dark, the withdrawal that shows why and the next step instead of a form, and the
 * code screen's phone spaced as everywhere else. Each at 390 and 1440 px, light and dark, ru and en.
 * SHOTS_DIR=<dir> keeps the screenshots.
 */
import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import {
  colorScheme,
  GOOD_CARD,
  type Person,
  PIN,
  registerPerson,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

type Language = 'ru' | 'en';
// The project gives the width (phone 390 px, desktop 1440 px); each test walks both schemes.
const LOOKS = [{ scheme: 'light' }, { scheme: 'dark' }] as const;
type Look = (typeof LOOKS)[number];

const T = {
  ru: {
    close: 'Закрыть кошелёк',
    exportFirst: 'Сначала сохраните свои данные',
    json: 'Скачать JSON',
    trusting: 'Вы — доверенное лицо',
    anna: 'Анна Д.',
    closed: 'Кошелёк закрыт',
    latest: 'самое позднее',
    done: 'Понятно',
    savings: 'Копилка',
    system: 'Системная',
    unavailable: 'Вывод средств недоступен',
    getCode: 'Получить код',
    sendCode: 'Получить код',
    phone: 'Телефон',
    logIn: 'Войти',
  },
  en: {
    close: 'Close the wallet',
    exportFirst: 'Save your data first',
    json: 'Download JSON',
    trusting: 'You are a trusted person',
    // In Latin letters on an English screen (docs/decisions/language-and-format.md#names-on-english-screens).
    anna: 'Anna D.',
    closed: 'The wallet is closed',
    latest: 'at the latest by',
    done: 'Got it',
    savings: 'Savings',
    system: 'System',
    unavailable: 'Withdrawals are unavailable',
    getCode: 'Get a code',
    sendCode: 'Send code',
    phone: 'Phone',
    logIn: 'Sign in',
  },
} as const;

async function look(page: Page, language: Language, { scheme }: Look): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('e-wallet-language', value), language);
  await colorScheme(page, scheme);
}

async function shoot(
  page: Page,
  name: string,
  language: Language,
  { scheme }: Look,
  fullPage = true,
): Promise<void> {
  const width = page.viewportSize()?.width;
  await expect(page.locator('[aria-busy="true"], .skeleton, .page-spinner')).toHaveCount(0);
  await page.waitForTimeout(250);
  if (process.env.SHOTS_DIR)
    await page.screenshot({
      path: `${process.env.SHOTS_DIR}/${name}-${language}-${scheme}-${width}.png`,
      fullPage,
    });
  const serious = await axeViolations(page, { serious: true, tags: ['wcag2a', 'wcag2aa', 'wcag21aa'] });
  expect(serious, `${name} ${language} ${scheme} ${width}`).toEqual([]);
}

/** A person with roubles who may withdraw, whom someone else named their trusted person. */
async function closingPerson(request: Parameters<typeof registerPerson>[0]): Promise<Person> {
  const person = await registerPerson(request, { firstName: 'Зоя', lastName: 'Закрытова' });
  await upgradeToSimplified(request, person);
  // Under the antifraud floor: a large payout from a fresh device is refused (docs/decisions/antifraud-paths.md).
  await topUp(request, person, '400.00');
  const anna = await registerPerson(request, { firstName: 'Анна', lastName: 'Доверова' });
  const named = await request.put('/v2/wallet/trusted-person', {
    headers: { Authorization: `Token ${anna.token}` },
    data: { phone: person.phone, threshold: '5000', new_payees: false },
  });
  expect(named.ok(), await named.text()).toBe(true);
  return person;
}

for (const language of ['ru', 'en'] as const) {
  const t = T[language];

  test(`closing (${language}): the export first, whom one protects, and the page saying where the money went`, async ({
    page,
    request,
  }) => {
    test.setTimeout(300_000);
    const person = await closingPerson(request);
    // The dialog as each look shows it, before anything is given.
    for (const each of LOOKS) {
      await look(page, language, each);
      await signIn(page, person, '/settings');
      await page.getByTestId('close-wallet').getByRole('button', { name: t.close }).click();
      const dialog = page.getByRole('dialog', { name: t.close });
      const exportFirst = dialog.getByTestId('close-export');
      await expect(exportFirst.getByRole('heading', { name: t.exportFirst })).toBeVisible();
      await expect(exportFirst.getByRole('button', { name: t.json })).toBeVisible();
      const trusting = dialog.getByTestId('close-trusting');
      await expect(trusting.getByRole('heading', { name: t.trusting })).toBeVisible();
      await expect(trusting).toContainText(t.anna);
      await expect(dialog.getByText(/400,00|400\.00/)).toBeVisible();
      await shoot(page, 'close-dialog', language, each, false);
    }

    // The export offered in the dialog is the real one: a JSON file with the trusted person in it.
    const dialog = page.getByRole('dialog', { name: t.close });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: t.json }).click(),
    ]);
    const data = JSON.parse(
      await (await file.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()),
    );
    expect(data.trusted_person.trusting).toEqual([expect.objectContaining({ name: 'Анна Д.' })]);

    await dialog.getByLabel(language === 'ru' ? 'Карта для остатка' : 'Card for the balance').fill(GOOD_CARD);
    await dialog.getByRole('button', { name: t.getCode }).click();
    const outbox = await (await request.get(`/sandbox/sms?phone=${encodeURIComponent(person.phone)}`)).json();
    const code = outbox.results.find((sms: { code: string }) => sms.code !== '').code as string;
    const [codeDigit, pinDigit] =
      language === 'ru'
        ? ['Цифра 1 из 4 кода', 'Цифра 1 из 4 PIN-кода']
        : ['Digit 1 of 4 of the code', 'Digit 1 of 4 of the PIN'];
    await dialog.getByRole('textbox', { name: codeDigit, exact: true }).click();
    await page.keyboard.type(code);
    await dialog.getByRole('textbox', { name: pinDigit, exact: true }).click();
    await page.keyboard.type(PIN);
    await dialog
      .getByRole('button', { name: language === 'ru' ? 'Закрыть навсегда' : 'Close for good' })
      .click();

    // Signed out onto the page that says where the money went and by when.
    await expect(page).toHaveURL(/\/auth$/);
    const closed = page.getByTestId('closed-wallet');
    await expect(closed.getByRole('heading', { name: t.closed, level: 1 })).toBeVisible();
    await expect(closed).toContainText('•••• 1111');
    await expect(closed).toContainText(/400,00|400\.00/);
    await expect(closed).toContainText(t.latest);
    for (const each of LOOKS) {
      await look(page, language, each);
      await page.reload();
      await expect(closed.getByRole('heading', { name: t.closed, level: 1 })).toBeVisible();
      await shoot(page, 'closed', language, each);
    }
    await closed.getByRole('button', { name: t.done }).click();
    await expect(page.getByTestId('closed-wallet')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('closed-wallet')).toHaveCount(0);
  });

  test(`the smaller items (${language}): savings in the menu, the theme switch, withdrawal's next step, the code screen's phone`, async ({
    page,
    request,
  }) => {
    test.setTimeout(300_000);
    const person = await registerPerson(request);
    for (const each of LOOKS) {
      await look(page, language, each);
      // Savings from the main navigation, lit there.
      await signIn(page, person, '/');
      const menu = page.getByRole('navigation', { name: language === 'ru' ? 'Разделы' : 'Sections' });
      await menu.getByRole('link', { name: t.savings }).click();
      await expect(page).toHaveURL(/\/wallet\/savings$/);
      await expect(menu.getByRole('link', { name: t.savings })).toHaveAttribute('aria-current', 'page');
      // No word clipped: each label lies inside its own item, and the items inside the screen.
      for (const link of await menu.getByRole('link').all()) {
        const label = link.locator('.home-nav__label');
        if (!(await label.isVisible())) continue;
        const [outer, inner] = [await link.boundingBox(), await label.boundingBox()];
        expect(inner!.x).toBeGreaterThanOrEqual(outer!.x - 0.5);
        expect(inner!.x + inner!.width).toBeLessThanOrEqual(outer!.x + outer!.width + 0.5);
        expect(outer!.x + outer!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      }
      await shoot(page, 'savings-menu', language, each);

      // The theme switch: one line each, the chosen one plainly marked.
      await page.goto('/settings');
      const system = page.getByRole('radio', { name: t.system });
      const option = page.locator('.segmented--three .segmented__option').filter({ has: system });
      const other = page.locator('.segmented--three .segmented__option').first();
      await expect(option).toBeVisible();
      const [chosenBox, otherBox] = [await option.boundingBox(), await other.boundingBox()];
      expect(chosenBox!.height).toBeLessThanOrEqual(otherBox!.height + 1);
      expect(await option.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
      // The whole switch inside its panel: no segment pushed out of sight.
      const fieldset = page.locator('.segmented--three');
      expect(await fieldset.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
      const [switchBox, panelBox] = [
        await fieldset.boundingBox(),
        await page.locator('.settings-panel').filter({ has: system }).boundingBox(),
      ];
      expect(switchBox!.x + switchBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
      const chosen = page.locator('.segmented--three .segmented__option:has(input:checked)');
      const backgrounds = await chosen.evaluate((node) => [
        getComputedStyle(node).backgroundColor,
        getComputedStyle(node.parentElement as Element).backgroundColor,
      ]);
      expect(backgrounds[0]).not.toBe(backgrounds[1]);
      await option.scrollIntoViewIfNeeded();
      if (process.env.SHOTS_DIR)
        await page
          .locator('.settings-panel')
          .filter({ has: system })
          .screenshot({
            path: `${process.env.SHOTS_DIR}/theme-switch-${language}-${each.scheme}-${page.viewportSize()?.width}.png`,
          });

      // Anonymous: no withdrawal form, why and the identification instead.
      await page.goto('/wallet/withdrawal');
      await expect(page.getByTestId('withdrawal-unavailable')).toContainText(t.unavailable);
      await expect(page.locator('.money-flow__panel').getByTestId('identification')).toBeVisible();
      await expect(
        page.getByRole('textbox', { name: language === 'ru' ? 'Карта' : 'Card', exact: true }),
      ).toHaveCount(0);
      await shoot(page, 'withdrawal-closed', language, each);
    }

    // The code screen names the phone as every other screen does: +7 9XX XXX-XX-XX. An English
    // browser starts the phone field at another country: the person picks Russia first.
    await page.evaluate(() => localStorage.removeItem('e-wallet-session'));
    await look(page, language, LOOKS[0]);
    await page.goto('/auth/login');
    if (language === 'en') {
      await page.getByRole('button', { name: /^Country: .*Choose another$/ }).click();
      await page.getByRole('searchbox', { name: 'Search for a country' }).fill('Russia');
      await page.getByRole('searchbox', { name: 'Search for a country' }).press('Enter');
      await expect(page.getByRole('button', { name: /^Country: Russia, code \+7/ })).toBeVisible();
    }
    await page.getByLabel(t.phone, { exact: true }).pressSequentially(person.national);
    await page.getByRole('button', { name: t.sendCode }).click();
    const n = person.national;
    await expect(page.locator('.auth-phone')).toHaveText(
      `+7\u00a0${n.slice(0, 3)}\u00a0${n.slice(3, 6)}\u2011${n.slice(6, 8)}\u2011${n.slice(8)}`,
    );
    for (const each of LOOKS) {
      await colorScheme(page, each.scheme);
      await shoot(page, 'code-phone', language, each);
    }
  });
}
