/**
 * The app loads nothing from outside its own origin (docs/decisions/security-rules.md#security-baselines):
 * every request the browser makes during a whole journey — landing, sign-in pages, every signed-in route, the
 * notifications, a top-up through the sandbox payment page back to the result page, the QR page —
 * is recorded, and any other host fails the test.
 */
import { expect, type Request, test } from '@playwright/test';
import { openProfilePanel, registerPerson, signIn } from './wallet-fixtures.ts';

test('a full journey requests nothing from a third-party host', async ({ page, context, baseURL }) => {
  const own = new URL(baseURL!).origin;
  const requested: string[] = [];
  const record = (request: Request) => requested.push(request.url());
  // Context-level: pages, workers and the service worker alike.
  context.on('request', record);
  // Signed in, the app holds its event stream open (docs/decisions/live-wallet.md#the-live-wallet), so the
  // network is never idle: a page is settled once a second passes without a new request.
  const settled = async () => {
    let seen = -1;
    for (let waited = 0; seen !== requested.length && waited < 15_000; waited += 1000) {
      seen = requested.length;
      await page.waitForTimeout(1000);
    }
  };

  await page.goto('/auth');
  await page.getByRole('link', { name: /Войти/ }).first().click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goto('/auth/register');

  const person = await registerPerson(page.request);
  await signIn(page, person);
  await openProfilePanel(page);
  for (const path of ['/history', '/wallet', '/payment', '/settings', '/wallet/withdrawal', '/wallet/save']) {
    await page.goto(path);
    await settled();
  }

  // A top-up through the sandbox payment page and back to the result page.
  await page.goto('/wallet/topup');
  await page.getByRole('textbox', { name: /Сумма/ }).fill('150');
  await page.getByRole('button', { name: 'Пополнить' }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByLabel(/Номер карты/).fill('4111 1111 1111 1111');
  await page.getByRole('button', { name: /Оплатить/ }).click();
  await expect(page).toHaveURL(/\/wallet\/payments\/finish\?order=/);
  await settled();

  context.off('request', record);
  const foreign = requested.filter((url) => {
    if (/^(data|blob):/.test(url)) return false;
    return new URL(url).origin !== own;
  });
  expect(requested.length).toBeGreaterThan(20);
  expect(foreign, `requests outside ${own}`).toEqual([]);
});
