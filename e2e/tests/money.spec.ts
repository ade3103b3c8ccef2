/**
 * Money in and out in the browser, on a phone and a desktop, against the real server and its
 * sandbox providers: top up through the sandbox payment page and see the balance on the result page
 * and on home; withdraw to a card with the PIN modal through success (4111 1111 1111 1111) and a
 * payout that fails after its delay and brings the money back (4000 0000 0000 0002); send money to
 * a second user who then sees it. Withdrawals and transfers need the 'simplified' level: the test
 * raises people through the sandbox KYC page. Screenshots go to /tmp/shots/money-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { PIN, registerPerson, rubBalance, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

// One test here mocks an API answer with page.route. Playwright does not promise that page.route
// sees the requests of a page that a service worker with a fetch handler controls (Chromium may send
// them from the browser while the worker decides): a test that asserted it would failed in CI once.
// The app-shell worker has its own tests (pwa.spec.ts), so these money journeys run without it.
test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `/tmp/shots/money-${name}-${width}.png` });
}

const noAxeViolations = (page: Page) => expectNoAxeViolations(page);

async function enterPin(page: Page, pin: string) {
  const modal = page.getByRole('dialog');
  const send = modal.getByRole('button', { name: 'Подтвердить' });
  await expect(send).toBeDisabled();
  // The PIN is typed at once: the first box has the keyboard when the stage opens.
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(pin.slice(0, 3));
  await expect(send).toBeDisabled();
  await page.keyboard.type(pin.slice(3));
  await expect(send).toBeEnabled();
  await send.click();
}

test('top up through the sandbox payment page: the result page and home show the new balance', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/wallet/topup');
  await expect(page.getByRole('heading', { name: 'Пополнение', level: 1 })).toBeVisible();
  const amount = page.getByLabel('Сумма', { exact: true });
  await expect(amount).toHaveAttribute('placeholder', '0');
  await expect(amount).toHaveAttribute('inputmode', 'decimal');
  await expect(page.getByTestId('account-balance')).toHaveText(nbsp('0,00 ₽'));
  await noAxeViolations(page);

  // Bad amounts: ours first, then the server's limit message; the button comes back each time.
  const submit = page.getByRole('button', { name: 'Пополнить' });
  await amount.fill('0');
  await submit.click();
  await expect(page.getByText('Сумма должна быть больше нуля')).toBeVisible();
  await amount.fill('20000');
  await submit.click();
  await expect(page.getByText(/Превышен лимит остатка/)).toBeVisible();
  await expect(submit).toBeEnabled();

  await amount.fill('1500,50');
  await shot(page, 'topup');
  await amount.press('Enter');
  // The browser leaves for the provider's page.
  await expect(page).toHaveURL(/\/sandbox\/pay\/[0-9a-f-]{36}$/);
  await page.getByLabel('Номер карты').fill('4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Оплатить' }).click();

  await expect(page).toHaveURL(/\/wallet\/payments\/finish\?order=[0-9a-f-]{36}$/);
  const modal = page.getByRole('dialog', { name: 'Пополнение' });
  await expect(modal.getByText('Кошелёк пополнен')).toBeVisible({ timeout: 15_000 });
  await expect(modal.getByTestId('top-up-amount')).toHaveText(nbsp('Зачислено 1 500,50 ₽'));
  await expect(modal.getByTestId('top-up-balance')).toHaveText(nbsp('Баланс: 1 500,50 ₽'));
  await shot(page, 'result');
  await noAxeViolations(page);

  await modal.getByRole('button', { name: 'Закрыть' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account-balance').first()).toHaveText(nbsp('1 500,50 ₽'));
  expect(await rubBalance(request, person)).toBe('1500.50');
});

test('a declined payment shows failed on the result page; top-up is refused with its own text when not allowed', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/wallet/topup');
  await page.getByLabel('Сумма', { exact: true }).fill('300');
  await page.getByRole('button', { name: 'Пополнить' }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\//);
  await page.getByRole('button', { name: 'Отменить оплату' }).click();
  await expect(page).toHaveURL(/\/wallet\/payments\/finish\?order=/);
  const modal = page.getByRole('dialog', { name: 'Пополнение' });
  await expect(modal.getByText('Оплата не прошла')).toBeVisible({ timeout: 15_000 });
  await modal.getByRole('button', { name: 'На главную' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await rubBalance(request, person)).toBe('0.00');

  // When auth info says top-up is not allowed, its own notice (not the withdrawal's) shows.
  await page.route('**/v2/wallet/auth/info', async (route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...(await answer.json()), is_topup_allowed: false } });
  });
  await page.goto('/wallet/topup');
  await expect(page.getByTestId('top-up-unavailable')).toContainText(
    'Пополнение кошелька недоступно, пожалуйста, пройдите идентификацию.',
  );
  await expect(page.getByRole('button', { name: 'Пополнить' })).toBeDisabled();
});

test('withdraw to a card with the PIN modal: success, and a failed payout that brings the money back', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await topUp(request, person, '5000');

  // Anonymous: withdrawal is not allowed: its own text and the identification instead of a form.
  await signIn(page, person, '/wallet/withdrawal');
  await expect(page.getByRole('heading', { name: 'Вывод на карту', level: 1 })).toBeVisible();
  await expect(page.getByTestId('withdrawal-unavailable')).toContainText(
    'Вывод средств недоступен, пожалуйста, пройдите идентификацию.',
  );
  await expect(page.getByLabel('Карта', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Вывести' })).toHaveCount(0);
  await expect(page.locator('.money-flow__panel').getByTestId('identification')).toBeVisible();

  await upgradeToSimplified(request, person);
  await page.reload();
  await expect(page.getByTestId('withdrawal-balance')).toHaveText(nbsp('5 000,00 ₽'));
  await expect(page.getByTestId('withdrawal-unavailable')).toHaveCount(0);

  const amount = page.getByLabel('Сумма', { exact: true });
  const card = page.getByLabel('Карта', { exact: true });
  const submit = page.getByRole('button', { name: 'Вывести' });
  await expect(amount).toHaveAttribute('placeholder', '0');
  await expect(card).toHaveAttribute('placeholder', '0000 0000 0000 0000');
  await expect(card).toHaveAttribute('maxlength', '19');
  await expect(submit).toBeDisabled();

  // Digits grouped in fours while typing; letters dropped; never more than 16 digits.
  await amount.fill('1000');
  await card.click();
  await page.keyboard.type('4111a11111');
  await expect(card).toHaveValue('4111 1111 1');
  await page.keyboard.type('11111119');
  await expect(card).toHaveValue('4111 1111 1111 1111');
  // The answer before the PIN has come: the page is settled before its contrast is judged.
  await expect(submit).toBeEnabled();
  await noAxeViolations(page);

  // A wrong PIN: failed with the server's message; then the right one.
  await submit.click();
  const modal = page.getByRole('dialog', { name: 'Вывод на карту' });
  await expect(modal.getByText(nbsp('1 000,00 ₽'))).toBeVisible();
  await expect(modal.getByText('На карту 4111 11•• •••• 1111')).toBeVisible();
  await shot(page, 'withdrawal-pin');
  await enterPin(page, '1357');
  await expect(modal.getByTestId('pay-failed-message')).toContainText('Неверный PIN-код');
  // Item 4: a wrong PIN is not a 'try later'; the retry is offered.
  await expect(modal.getByText('Повторите попытку позже')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Попробовать снова' }).click();
  await enterPin(page, PIN);
  await expect(modal.getByText('Заявка на вывод средств успешно создана!')).toBeVisible();
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  const receipt = modal.getByTestId('receipt');
  await expect(receipt).toContainText('Вывод на карту');
  await expect(receipt).toContainText(nbsp('1 000,00 ₽'));
  await expect(receipt).toContainText(/411111\*+1111|4111 11/);
  await expect(modal.getByTestId('receipt-status')).toContainText('Выполнено', { timeout: 15_000 });
  await shot(page, 'withdrawal-receipt');
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('withdrawal-balance')).toHaveText(nbsp('4 000,00 ₽'));

  // The always-declined card: the request is created, the payout fails after its delay, money comes back.
  await amount.fill('500');
  await card.fill('4000 0000 0000 0002');
  await submit.click();
  await enterPin(page, PIN);
  await expect(modal.getByText('Заявка на вывод средств успешно создана!')).toBeVisible();
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  await expect(modal.getByTestId('receipt-status')).toContainText('Не выполнено', { timeout: 15_000 });
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect(page.getByTestId('withdrawal-balance')).toHaveText(nbsp('4 000,00 ₽'));
  expect(await rubBalance(request, person)).toBe('4000.00');
});

test('send money to a second user, who then sees it', async ({ page, browser, request }) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, sender, '3000');

  // Anonymous senders are told transfers are not available.
  await signIn(page, sender, '/wallet/save');
  await expect(page.getByTestId('transfer-unavailable')).toContainText(
    'Переводы другим пользователям недоступны',
  );
  await expect(page.getByRole('button', { name: 'Перевести' })).toBeDisabled();

  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Перевод', level: 1 })).toBeVisible();
  await expect(page.getByTestId('transfer-unavailable')).toHaveCount(0);

  // An unknown number: the server's reason under the field.
  const phone = page.getByLabel('Телефон получателя');
  await phone.fill('9990000000');
  await expect(page.getByText('Получатель с таким номером не найден')).toBeVisible();

  await page.getByLabel('Сумма', { exact: true }).fill('700');
  await phone.fill(recipient.national);
  const card = page.getByTestId('recipient-card');
  await expect(card).toContainText('Иван П.');
  await expect(card).not.toContainText('Петров');
  await expect(card).toContainText(recipient.national.slice(-2));
  // The answer before the PIN has come: the page is settled before its contrast is judged.
  await expect(page.getByRole('button', { name: 'Перевести' })).toBeEnabled();
  await noAxeViolations(page);
  await shot(page, 'transfer');

  await page.getByRole('button', { name: 'Перевести' }).click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal).toContainText('Иван П.');
  await enterPin(page, PIN);
  await expect(modal.getByText('Перевод выполнен')).toBeVisible();
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  await expect(modal.getByTestId('receipt')).toContainText('Перевод');
  await expect(modal.getByTestId('receipt-status')).toContainText('Выполнено');
  await shot(page, 'transfer-receipt');
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect(page.getByTestId('account-balance').first()).toHaveText(nbsp('2 300,00 ₽'));

  // The recipient sees the money on home.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, locale: 'ru-RU' });
  const recipientPage = await other.newPage();
  await signIn(recipientPage, recipient, '/');
  await expect(recipientPage.getByTestId('account-balance').first()).toHaveText(nbsp('700,00 ₽'));
  await expect(recipientPage.getByText(nbsp('+700,00 ₽')).first()).toBeVisible();
  await other.close();
});

test('a transfer whose answer is lost to a failover is repeated with the same key and done once', async ({
  page,
  request,
}) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' }),
    registerPerson(request, { firstName: 'Пётр', lastName: 'Иванов' }),
  ]);
  await topUp(request, sender, '1000');
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);
  // The first send reaches the server and is done, but the answer the app gets is the 503 of a
  // database failing over (as an instance or HAProxy sends it); the app sends it again by itself.
  const keys: string[] = [];
  await page.route('**/v2/wallet/transfer', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    await route.fetch();
    await route.fulfill({
      status: 503,
      headers: { 'Retry-After': '1', 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        status: 'error',
        code: 'SERVICE_UNAVAILABLE',
        message: 'Сервис временно недоступен. Повторите через несколько секунд',
      }),
    });
  });
  await signIn(page, sender, '/wallet/save');
  await page.getByLabel('Сумма', { exact: true }).fill('300');
  await page.getByLabel('Телефон получателя').fill(recipient.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Пётр И.');
  await page.getByRole('button', { name: 'Перевести' }).click();
  await enterPin(page, PIN);
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByText('Перевод выполнен')).toBeVisible({ timeout: 10_000 });
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect(page.getByTestId('account-balance').first()).toHaveText(nbsp('700,00 ₽'));
  expect(await rubBalance(request, sender)).toBe('700.00');
});
