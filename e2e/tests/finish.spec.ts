/**
 * Every main screen in Russian and in English, on a phone and a desktop: no word of the other
 * language, no amount in the other language's format, axe with target-size (24 px) on. The person
 * has money, an exchange, a transfer, requests both ways, a template and a schedule, all made
 * through the real API. With SHOTS_DIR set, each screen is saved as finish-<lang>-<screen>-<width>.png.
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  expectAccessible,
  expectScreenInLanguage,
  expectThumbTargets,
  type ScreenLanguage,
} from './language-check.ts';
import {
  auth,
  type Person,
  PIN,
  registerPerson,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

async function post(request: APIRequestContext, person: Person, path: string, data: object) {
  const answer = await request.post(path, {
    data,
    headers: { ...auth(person), 'Idempotency-Key': randomUUID() },
  });
  expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
  return answer.json();
}

interface World {
  maria: Person;
  ivan: Person;
  accountId: string;
  verifyPath: string;
  payLink: string;
}

async function makeWorld(request: APIRequestContext): Promise<World> {
  const [maria, ivan] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, maria, '5000');
  await Promise.all([upgradeToSimplified(request, maria), upgradeToSimplified(request, ivan)]);
  const sent = await post(request, maria, '/v2/wallet/transfer', {
    phone: ivan.phone,
    amount: '1250.50',
    currency_code: 'RUB',
    pin: PIN,
  });
  const quote = await post(request, maria, '/v2/wallet/exchange/quote', {
    from_currency: 'RUB',
    to_currency: 'USD',
    amount: '1000',
  });
  await post(request, maria, '/v2/wallet/exchange', { quote_id: quote.quote_id, pin: PIN });
  await post(request, maria, '/v2/wallet/request', {
    amount: '75',
    currency_code: 'RUB',
    phone: ivan.phone,
    comment: 'Кино',
  });
  const link = await post(request, ivan, '/v2/wallet/request', { amount: '40', currency_code: 'RUB' });
  await post(request, ivan, '/v2/wallet/request', { amount: '30', currency_code: 'RUB', phone: maria.phone });
  await post(request, maria, '/v2/wallet/template', {
    name: 'Аренда',
    phone: ivan.phone,
    amount: '500',
    currency_code: 'RUB',
  });
  await post(request, maria, '/v2/wallet/schedule', {
    phone: ivan.phone,
    amount: '100',
    currency_code: 'RUB',
    period: 'month',
    first_run_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    pin: PIN,
  });
  const wallet = await (await request.get('/v2/wallet', { headers: auth(maria) })).json();
  const rub = (wallet.results[0].accounts as { id: string; currency_code: string }[]).find(
    (account) => account.currency_code === 'RUB',
  );
  const receipt = await (
    await request.get(`/v2/wallet/transaction/${sent.receipt.id}/receipt`, { headers: auth(maria) })
  ).json();
  return {
    maria,
    ivan,
    accountId: rub!.id,
    verifyPath: new URL(receipt.verify_url).pathname,
    payLink: new URL(link.url).pathname,
  };
}

/** The person's own words that stay as typed whatever the language. */
const dataOf = (world: World, userAgent: string) => [
  userAgent,
  // Avatars' initials.
  'М',
  'И',
  'А',
  'Мария Соколова',
  'Иван Петров',
  'Мария С.',
  'Иван П.',
  'Мария',
  'Иван',
  'Соколова',
  'Аренда',
  'Кино',
  world.maria.email,
  world.ivan.email,
  // The session list names the browser and system by the User-Agent.
  'Chrome',
  'Linux',
  'Android',
  'Windows',
  'Mac OS',
];

async function setLanguage(page: Page, language: ScreenLanguage) {
  await page.addInitScript((value) => localStorage.setItem('e-wallet-language', value), language);
}

async function check(page: Page, language: ScreenLanguage, name: string, data: string[]) {
  // The screen's data first: no spinner and no skeleton left (the live stream keeps the network busy).
  await expect(
    page.locator('[aria-busy="true"], .skeleton, .page-spinner, .area-state--loading'),
  ).toHaveCount(0);
  await page.waitForTimeout(300);
  if (process.env.SHOTS_DIR) {
    const file = `finish-${language}-${name}-${page.viewportSize()?.width}.png`;
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/${file}` });
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/full/${file}`, fullPage: true });
  }
  await expectScreenInLanguage(page, language, data);
  await expectAccessible(page);
  if ((page.viewportSize()?.width ?? 0) < 600) await expectThumbTargets(page);
}

for (const language of ['ru', 'en'] as const) {
  test.describe(language, () => {
    // The public verify page reads the browser's language (Accept-Language), as a stranger's browser sends it.
    test.use({ locale: language === 'en' ? 'en-GB' : 'ru-RU' });
    test(`every main screen in ${language}: one language, its number format, targets of 24 px`, async ({
      page,
      request,
    }) => {
      test.setTimeout(480_000);
      const world = await makeWorld(request);
      const data = dataOf(world, await page.evaluate(() => navigator.userAgent));
      await setLanguage(page, language);

      for (const [name, path] of [
        ['landing', '/auth'],
        ['login', '/auth/login'],
        ['register', '/auth/register'],
      ] as const) {
        await page.goto(path);
        await check(page, language, name, data);
      }
      await page.goto(world.verifyPath);
      await check(page, language, 'verify', data);

      await signIn(page, world.maria);
      for (const [name, path] of [
        ['home', '/'],
        ['history', '/history'],
        ['wallet', '/wallet'],
        ['account', `/wallet/${world.accountId}`],
        ['topup', '/wallet/topup'],
        ['withdrawal', '/wallet/withdrawal'],
        ['transfer', '/wallet/save'],
        ['request', '/wallet/request'],
        ['schedules', '/wallet/schedules'],
        ['exchange', '/wallet/exchange'],
        ['payment', '/payment'],
        ['settings', '/settings'],
      ] as const) {
        await page.goto(path);
        await check(page, language, name, data);
      }
      await signIn(page, world.ivan, world.payLink);
      await check(page, language, 'pay-request', data);
    });
  });
}
