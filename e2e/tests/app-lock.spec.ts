/**
 * The inactivity lock (docs/decisions/security-rules.md#security-baselines) against the real server, on both
 * viewports:
 * Playwright's clock moves the page's time 15 minutes on; the lock covers the page, survives a
 * reload, shows the server's message for a wrong PIN, and the right PIN gives the page back.
 */
import { expect, type Page, test } from '@playwright/test';
import { PIN, registerPerson, signIn } from './wallet-fixtures.ts';

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name });
const lockDialog = (page: Page) => page.getByRole('dialog', { name: 'Приложение заблокировано' });
const digit = (page: Page, n: number) => lockDialog(page).getByLabel(`Цифра PIN-кода ${n} из 4`);

test('15 minutes without activity lock the app until the PIN the server checks', async ({
  page,
  request,
}, testInfo) => {
  const person = await registerPerson(request, { firstName: 'Ольга', lastName: 'Ветрова' });
  await page.clock.install();
  await signIn(page, person);
  await expect(page.getByTestId('greeting')).toHaveText(`Здравствуйте, ${person.firstName}!`);

  // Activity at 10 minutes moves the deadline: 14:59 after it, still open.
  await page.clock.fastForward('10:00');
  await page.mouse.move(200, 300);
  await page.mouse.move(210, 310);
  await page.clock.fastForward('14:59');
  await expect(lockDialog(page)).toHaveCount(0);
  await page.clock.fastForward('00:01');

  const dialog = lockDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog).toContainText(
    `${person.firstName} ${person.lastName}, введите PIN-код, чтобы продолжить`,
  );
  // The first box has the keyboard; Tab goes to 'sign out' and back, never behind the lock.
  await expect(digit(page, 1)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Выйти' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(digit(page, 1)).toBeFocused();
  // Nothing behind is visible or clickable: the lock covers the whole viewport.
  const covered = await page.evaluate(() => {
    const points = [
      [5, 5],
      [window.innerWidth / 2, window.innerHeight / 2],
      [window.innerWidth - 5, window.innerHeight - 5],
    ];
    return points.every(([x, y]) => document.elementFromPoint(x!, y!)?.closest('.app-lock') != null);
  });
  expect(covered).toBe(true);
  // A click where the navigation was lands on the lock, not on the page.
  await page.mouse.click(20, 20);
  await expect(page).toHaveURL(/\/$/);
  await expect(lockDialog(page)).toBeVisible();

  if (process.env.SHOTS_DIR) {
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/lock-${testInfo.project.name}.png` });
  }

  // A reload does not lift it: the deadline in storage is in the past.
  await page.reload();
  await expect(lockDialog(page)).toBeVisible();

  // A wrong PIN: the server's message, the boxes empty again.
  await digit(page, 1).click();
  await page.keyboard.type('1357');
  await expect(dialog.getByRole('alert')).toHaveText(/^Неверный PIN-код\. Осталось попыток: \d+$/);
  await expect(digit(page, 1)).toHaveValue('');
  if (process.env.SHOTS_DIR) {
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/lock-${testInfo.project.name}-wrong.png` });
  }

  // The right PIN opens the app, and it works again.
  await expect(digit(page, 1)).toBeFocused();
  await page.keyboard.type(PIN);
  await expect(lockDialog(page)).toHaveCount(0);
  await nav(page, 'История').click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(nav(page, 'История')).toHaveAttribute('aria-current', 'page');

  // The timer started again: another 15 quiet minutes lock again.
  await page.clock.fastForward('15:00');
  await expect(lockDialog(page)).toBeVisible();
});

test('signing out from the lock screen goes to the landing', async ({ page, request }) => {
  const person = await registerPerson(request);
  await page.clock.install();
  await signIn(page, person);
  await expect(page.getByTestId('greeting')).toBeVisible();
  await page.clock.fastForward('15:00');
  await lockDialog(page).getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  // The token is revoked on the server.
  const info = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(info.status()).toBe(401);
});
