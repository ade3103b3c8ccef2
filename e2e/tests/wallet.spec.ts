/**
 * The signed-in money screens in real Chromium against the real server, on a phone and a desktop:
 * accounts, opening a USD account, the account page, history with a date range, notifications
 * with their scroll lock, signing out from the profile panel, and an axe check of each page.
 * People register and get money through the real API (sandbox SMS, sandbox payment page).
 */
import { expect, type Page, test } from '@playwright/test';
import { HOME_CALLS } from '../../apps/web/src/preload-route.ts';
import { expectNoAxeViolations } from './axe.ts';
import { payMerchant, registerPerson, signIn, topUp } from './wallet-fixtures.ts';

const expectNoSeriousAxeViolations = (page: Page) => expectNoAxeViolations(page, { serious: true });

/** The app's navigation link (header on a desktop, tab bar on a phone). */
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name });

test('the home screen asks for its data once: the first script starts the calls and the app takes their answers', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await topUp(request, person, '500');
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/v2/')) asked.push(url.pathname + url.search);
  });
  await signIn(page, person);
  await expect(page.getByRole('region', { name: 'Ваши счета' }).getByTestId('account-balance')).toHaveText([
    '500,00\u00a0₽',
  ]);
  await expect(page.getByTestId('greeting')).toHaveText(`Здравствуйте, ${person.firstName}!`);
  // Each call the first script starts is asked for once (the app asks again only if it did not take them).
  for (const call of HOME_CALLS)
    expect(
      asked.filter((path) => path === call),
      call,
    ).toHaveLength(1);
});

test('a new user sees the RUB account, opens a USD account and its page; unknown ids are not found', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person);

  await expect(page.getByTestId('greeting')).toHaveText(`Здравствуйте, ${person.firstName}!`);
  await expect(nav(page, 'Главная')).toHaveAttribute('aria-current', 'page');
  const carousel = page.getByRole('region', { name: 'Ваши счета' });
  await expect(carousel.getByTestId('account-balance')).toHaveText(['0,00\u00a0₽']);
  await expect(
    page.getByText('Операций пока нет. Здесь появятся пополнения, выводы и платежи.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Пополнить' })).toHaveAttribute('href', '/wallet/topup');
  await expect(page.getByRole('link', { name: 'Вывести' })).toHaveAttribute('href', '/wallet/withdrawal');
  await expect(page.getByRole('heading', { name: 'Оплата по QR-коду' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await nav(page, 'Счета').click();
  await expect(page).toHaveURL(/\/wallet$/);
  await expect(nav(page, 'Счета')).toHaveAttribute('aria-current', 'page');
  await expect(nav(page, 'Главная')).not.toHaveAttribute('aria-current', 'page');
  const list = page.getByTestId('account-list');
  await expect(list.getByRole('link')).toHaveCount(1);
  // The currency already open cannot be chosen again; the holder's real data is shown.
  await expect(page.getByRole('radio', { name: /RUB/ })).toBeDisabled();
  await expect(page.getByText(person.email).first()).toBeVisible();
  await page.getByRole('radio', { name: /USD/ }).check({ force: true });
  await expectNoSeriousAxeViolations(page);
  await page.getByRole('button', { name: 'Открыть счёт USD' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Счёт USD открыт' })).toBeVisible();
  await expect(list.getByRole('link')).toHaveCount(2);
  await expect(page.getByRole('radio', { name: /USD/ })).toBeDisabled();

  await list.getByRole('link', { name: /Счёт USD/ }).click();
  await expect(page).toHaveURL(/\/wallet\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Счёт USD' })).toBeVisible();
  await expect(page.getByTestId('account-page-balance')).toHaveText('0,00\u00a0$');
  await expect(page.getByRole('heading', { name: 'Данные счета' })).toBeVisible();
  await expect(page.getByTestId('details-email')).toHaveText(person.email);
  await expect(page.getByTestId('details-phone')).toContainText(person.national.slice(3, 6));
  for (const label of ['Пополнения', 'Выводы', 'Платежи', 'Прочее']) {
    await expect(page.locator('.stat-tile').filter({ hasText: label })).toContainText('0,00\u00a0$');
  }
  await expect(page.locator('.stat-tile.green')).toContainText('Пополнения');
  await expect(page.locator('.stat-tile.red')).toContainText('Выводы');
  await expect(page.locator('.stat-tile.yellow')).toContainText('Платежи');
  await expect(page.locator('.stat-tile.blue')).toContainText('Прочее');
  await expectNoSeriousAxeViolations(page);

  // Home now shows both accounts in the carousel.
  await nav(page, 'Главная').click();
  await expect(carousel.getByTestId('account-balance')).toHaveText(['0,00\u00a0₽', '0,00\u00a0$']);

  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
    await page.goto(`/wallet/${id}`);
    await expect(page.getByRole('heading', { name: 'Счёт не найден' })).toBeVisible();
  }
  const other = await registerPerson(request, { firstName: 'Олег' });
  const wallet = await request.get('/v2/wallet', { headers: { Authorization: `Token ${other.token}` } });
  const othersAccount = (await wallet.json()).results[0].accounts[0].id as string;
  await page.goto(`/wallet/${othersAccount}`);
  await expect(page.getByRole('heading', { name: 'Счёт не найден' })).toBeVisible();
});

test('the accounts carousel scrolls with its arrows once its scrolling has started after the first paint', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  for (const currency_code of ['USD', 'EUR']) {
    const opened = await request.post('/v2/wallet/account', {
      data: { currency_code },
      headers: { Authorization: `Token ${person.token}` },
    });
    expect(opened.ok()).toBe(true);
  }
  await signIn(page, person);
  const carousel = page.getByRole('region', { name: 'Ваши счета' });
  await expect(carousel.getByTestId('account-balance')).toHaveCount(3);
  const previous = carousel.getByRole('button', { name: 'Предыдущий счёт' });
  const next = carousel.getByRole('button', { name: 'Следующий счёт' });
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  // Embla is loaded after the slides are painted (shared/ui/wallet-carousel.tsx): the arrows work once it runs.
  await expect(async () => {
    await next.click();
    await expect(previous).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await previous.click();
  await expect(previous).toBeDisabled();
});

test('money shows by sign on home and history; statistics and a date range follow the data', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await topUp(request, person, '1500');
  await topUp(request, person, '2750.40');
  await payMerchant(request, person, '420.90');
  await signIn(page, person);

  await expect(page.getByRole('region', { name: 'Ваши счета' }).getByTestId('account-balance')).toHaveText([
    '3\u00a0829,50\u00a0₽',
  ]);
  const amounts = page.getByTestId('transaction-amount');
  await expect(amounts).toHaveText(['-420,90\u00a0₽', '+2\u00a0750,40\u00a0₽', '+1\u00a0500,00\u00a0₽']);
  const payment = page.locator('.transaction').first();
  await expect(payment).toHaveAttribute('data-look', 'withdrawal');
  // Named by its type, as the statistics name it (red and '-' by its sign).
  await expect(payment).toContainText('Платёж');
  await expect(payment.getByTestId('transaction-amount')).toHaveCSS('color', 'rgb(196, 43, 37)');
  await expect(page.locator('.transaction').nth(1)).toHaveAttribute('data-look', 'topup');
  // Long date with time in Russian.
  await expect(payment.locator('time')).toHaveText(/^\d{1,2} [а-я]+ \d{4} г\., \d{2}:\d{2} МСК$/);

  await nav(page, 'История').click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(nav(page, 'История')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'История' })).toBeVisible();
  const stats = page.locator('.stat-list');
  await expect(stats.locator('[data-type="topup"]')).toContainText('Пополнения');
  await expect(stats.locator('[data-type="topup"]')).toContainText('4\u00a0250,40\u00a0₽');
  await expect(stats.locator('[data-type="topup"]')).toContainText('91%');
  await expect(stats.locator('[data-type="payment"]')).toContainText('Платежи');
  await expect(stats.locator('[data-type="payment"]')).toContainText('420,90\u00a0₽');
  await expect(stats.locator('[data-type="payment"]')).toContainText('9%');
  // Only what moved is a row: no withdrawals, nothing 'other'.
  await expect(stats.locator('.stat-list__item')).toHaveCount(2);
  await expect(page.locator('.stat-chart__segment')).toHaveCount(2);
  await expect(page.getByRole('img', { name: /Диаграмма операций по типам/ })).toBeVisible();
  await expect(page.getByTestId('transaction-amount')).toHaveCount(3);
  await expectNoSeriousAxeViolations(page);

  // The range picker: hidden until asked for; a preset and apply; cancel keeps the range.
  const toggle = page.getByTestId('range-toggle');
  const picker = page.getByRole('dialog', { name: 'Период' });
  await expect(picker).toBeHidden();
  await toggle.click();
  await expect(picker).toBeVisible();
  await expect(picker.locator('.rdp-week')).toHaveCount(6);
  // Russian month names in the calendar.
  await expect(picker.locator('.rdp-caption_label')).toHaveText(
    /^(январь|февраль|март|апрель|май|июнь|июль|август|сентябрь|октябрь|ноябрь|декабрь) \d{4}$/i,
  );
  await expectNoSeriousAxeViolations(page);
  await picker.getByRole('button', { name: 'Вчера', exact: true }).click();
  await picker.getByRole('button', { name: 'Применить' }).click();
  await expect(picker).toBeHidden();
  await expect(page.getByText('За выбранный период операций нет')).toBeVisible();
  await expect(page.getByText('За этот период движений не было')).toBeVisible();
  await expect(stats.locator('.stat-list__item')).toHaveCount(0);

  await toggle.click();
  await picker.getByRole('button', { name: 'Сегодня', exact: true }).click();
  await picker.getByRole('button', { name: 'Отмена' }).click();
  await expect(page.getByText('За выбранный период операций нет')).toBeVisible();

  // Two clicks in reverse order make a range from the earlier day to the later (swapped).
  await toggle.click();
  const days = picker.locator('.rdp-day:not(.rdp-outside):not(.rdp-disabled) button');
  const count = await days.count();
  const last = days.nth(count - 1);
  const lastText = await last.textContent();
  await last.click();
  await expect(picker.getByText('Выберите день окончания')).toBeVisible();
  await days.first().click();
  await expect(picker.getByTestId('range-start')).toHaveText(/^1 [а-я]+ \d{4} г\.$/);
  await expect(picker.getByTestId('range-end')).toHaveText(new RegExp(`^${lastText} [а-я]+ \\d{4} г\\.$`));
  // A future day cannot be picked.
  const future = picker.locator('.rdp-day.rdp-disabled button').first();
  if ((await future.count()) > 0) await expect(future).toBeDisabled();
  await picker.getByRole('button', { name: 'Применить' }).click();
  await expect(page.getByTestId('transaction-amount')).toHaveCount(3);
});

test('notifications open and close, locking the page scroll while open', async ({ page, request }) => {
  const person = await registerPerson(request);
  await topUp(request, person, '300');
  await signIn(page, person);
  const bell = page.getByTestId('notifications-bell');
  await expect(bell).toHaveAccessibleName(/Уведомления: \d+ непрочитанн/);
  await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);

  await bell.click();
  const dropdown = page.getByRole('dialog', { name: 'Уведомления' });
  await expect(dropdown).toBeVisible();
  await expect(page.locator('body')).toHaveClass(/scroll-locked/);
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await expect(dropdown.locator('.notification').first()).toBeVisible();
  await expect(dropdown.locator('.notification--unread').first()).toBeVisible();
  await expect(dropdown.locator('time').first()).toHaveText(/^\d{1,2} [а-я]+ \d{4} г\., \d{2}:\d{2} МСК$/);
  await expectNoSeriousAxeViolations(page);

  await dropdown.getByRole('button', { name: 'Закрыть' }).click();
  await expect(dropdown).toBeHidden();
  await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);
  // Opened once: everything is read now.
  await expect(bell).toHaveAccessibleName('Уведомления');

  // Navigating closes the dropdown and unlocks the scroll; so does Escape.
  await bell.click();
  await expect(page.locator('body')).toHaveClass(/scroll-locked/);
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();
  await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);
  await expect(bell).toBeFocused();
  await bell.click();
  await expect(page.locator('body')).toHaveClass(/scroll-locked/);
  await page.evaluate(() => {
    window.history.pushState({}, '', '/history');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/history$/);
  await expect(dropdown).toBeHidden();
  await expect(page.locator('body')).not.toHaveClass(/scroll-locked/);
});

test('the profile panel shows the person and signs out', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Елена', lastName: 'Волкова' });
  await signIn(page, person);
  const panel = page.getByRole('complementary', { name: 'Профиль' });
  await page
    .getByRole('button', { name: 'Открыть профиль' })
    .or(page.getByTestId('profile-name'))
    .first()
    .click();
  await expect(panel.getByTestId('profile-initial')).toHaveText('Е');
  await expect(panel.getByTestId('profile-name')).toHaveText('Елена Волкова');
  await expect(panel.getByTestId('profile-email')).toHaveText(person.email);
  await expect(panel.getByText('Дата регистрации')).toBeVisible();
  await expect(panel.getByText(/\d{1,2} [а-я]+ \d{4} г\./).first()).toBeVisible();

  await panel.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('e-wallet-session'))).not.toContain('"authToken":"');
  // The token is revoked on the server too.
  const info = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(info.status()).toBe(401);
  await page.goto('/history');
  await expect(page).toHaveURL(/\/auth$/);
});

/**
 * Screenshots of the money pages with real data, for people to look at: SHOTS=1 writes them to
 * /tmp/shots/wallet-<page>-<width>.png (390 on the phone project, 1440 on the desktop one).
 */
test('screenshots of home, history, accounts and an account page', async ({ page, request }, testInfo) => {
  test.skip(!process.env.SHOTS, 'set SHOTS=1 to take screenshots');
  const person = await registerPerson(request);
  await topUp(request, person, '1500');
  await topUp(request, person, '2750.40');
  await payMerchant(request, person, '420.90');
  await request.post('/v2/wallet/account', {
    data: { currency_code: 'USD' },
    headers: { Authorization: `Token ${person.token}` },
  });
  const width = page.viewportSize()?.width ?? testInfo.project.name;
  // Each page's data are awaited below; the network never idles while the live stream is open.
  const shot = async (name: string) => {
    await page.waitForLoadState('load');
    await page.screenshot({ path: `/tmp/shots/wallet-${name}-${width}.png`, fullPage: true });
  };
  await signIn(page, person);
  await expect(page.getByTestId('transaction-amount')).toHaveCount(3);
  await shot('home');
  await page.getByTestId('notifications-bell').click();
  await expect(
    page.getByRole('dialog', { name: 'Уведомления' }).locator('.notification').first(),
  ).toBeVisible();
  await shot('notifications');
  await page.keyboard.press('Escape');
  await nav(page, 'История').click();
  await expect(page.locator('.stat-chart__segment')).toHaveCount(2);
  await shot('history');
  await page.getByTestId('range-toggle').click();
  await shot('range');
  await page.keyboard.press('Escape');
  await nav(page, 'Счета').click();
  await expect(page.getByTestId('account-list').getByRole('link')).toHaveCount(2);
  await shot('wallet');
  await page
    .getByTestId('account-list')
    .getByRole('link', { name: /Счёт RUB/ })
    .click();
  await expect(page.locator('.stat-tile')).toHaveCount(4);
  await shot('account');
});
