/**
 * The live wallet in the browser (docs/decisions/live-wallet.md#the-live-wallet): two contexts, the sender
 * and the receiver, both signed in. When the sender's transfer reaches its success stage, the receiver's home
 * shows the new balance, the operation in its history and one more unread on the bell within 2
 * seconds, without a reload (a mark left on the page's window survives).
 */
import { expect, test } from '@playwright/test';
import { PIN, registerPerson, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

// As in money.spec.ts: the app-shell worker is tested in pwa.spec.ts; these journeys run without it.
test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

test('the receiver’s balance, history and bell change within 2 s of the sender’s success, without a reload', async ({
  page,
  browser,
  request,
}) => {
  const [sender, receiver] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, sender, '1000');
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, receiver)]);

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, locale: 'ru-RU' });
  const receiverPage = await other.newPage();
  const streamOpened = receiverPage.waitForResponse(
    (response) => new URL(response.url()).pathname === '/v2/wallet/events' && response.status() === 200,
  );
  await signIn(receiverPage, receiver, '/');
  const balance = receiverPage.getByTestId('account-balance').first();
  await expect(balance).toHaveText(nbsp('0,00 ₽'));
  const badge = receiverPage.getByTestId('notifications-bell').locator('.notifications__badge');
  // The welcome and the identification's outcome are unread before the money comes.
  await expect(badge).toHaveText('2');
  // The stream is open before the money moves (the app holds it while signed in).
  await streamOpened;
  await receiverPage.evaluate(() => {
    (window as unknown as { liveMark: number }).liveMark = 42;
  });

  await signIn(page, sender, '/wallet/save');
  await page.getByLabel('Сумма', { exact: true }).fill('250');
  await page.getByLabel('Телефон получателя').fill(receiver.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await expect(page.getByRole('button', { name: 'Перевести' })).toBeEnabled();
  await page.getByRole('button', { name: 'Перевести' }).click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Перевод выполнен')).toBeVisible();

  // Within 2 seconds of the success stage, on the receiver's open page.
  await expect(balance).toHaveText(nbsp('250,00 ₽'), { timeout: 2000 });
  await expect(receiverPage.getByText(nbsp('+250,00 ₽')).first()).toBeVisible({ timeout: 2000 });
  await expect(badge).toHaveText('3', { timeout: 2000 });
  expect(await receiverPage.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(42);
  await other.close();
});
