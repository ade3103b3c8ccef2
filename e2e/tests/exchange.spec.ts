/**
 * Exchange in the browser (docs/decisions/exchange.md#exchange-between-ones-own-accounts), on a phone and a
 * desktop, against the real server with the sandbox's fixed rates (1 USD = 80 ₽, spread 1.5 %): an anonymous
 * wallet is told it cannot exchange; once identified, the person opens 'Обмен' from the wallet list, types
 * either amount, sees the rate, the fee, what arrives and the quote's countdown, confirms with the PIN and
 * reads the receipt; history shows one 'Обмен RUB → USD' with both amounts; then the dollars go to a
 * second user, whose USD account opens. Screenshots go to /tmp/shots/exchange-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { PIN, registerPerson, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

/** With SHOTS_DIR set, the screen is saved there (the README's screenshots). */
async function shot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR}/exchange-${name}-${width}.png` });
}

async function enterPin(page: Page) {
  const modal = page.getByRole('dialog');
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
}

test('RUB → USD exchange, then a USD transfer to a second user', async ({ page, request }) => {
  const [person, friend] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, person, '3000');

  await signIn(page, person, '/wallet/exchange');
  await expect(page.getByRole('heading', { name: 'Обмен', level: 1 })).toBeVisible();
  await expect(page.getByTestId('exchange-unavailable')).toContainText('Обмен валют недоступен');
  await upgradeToSimplified(request, person);

  // From the wallet list.
  await page.goto('/wallet');
  await page.getByTestId('wallet-exchange').click();
  await expect(page).toHaveURL(/\/wallet\/exchange$/);
  await expect(page.getByTestId('exchange-unavailable')).toHaveCount(0);
  await expect(page.getByLabel('Списать со счёта')).toHaveValue('RUB');
  await page.getByLabel('Зачислить на счёт').selectOption('USD');
  await expect(page.getByLabel('Зачислить на счёт').locator('option:checked')).toHaveText(
    'USD — счёт откроется',
  );

  // Typed as what arrives: the amount to give is worked out (5 $ = 400 ₽ + the fee).
  await page.getByLabel('Получаю').fill('5');
  await expect(page.getByLabel('Отдаю')).toHaveValue('406,10');
  await expect(page.getByTestId('exchange-receive')).toHaveText(nbsp('5,00 $'));

  // Typed as what is given.
  await page.getByLabel('Отдаю').fill('1000');
  await expect(page.getByTestId('exchange-receive')).toHaveText(nbsp('12,31 $'));
  await expect(page.getByLabel('Получаю')).toHaveValue('12,31');
  await expect(page.getByTestId('exchange-rate')).toHaveText('1 RUB = 0,0125 USD');
  await expect(page.getByTestId('exchange-fee')).toHaveText(nbsp('15,00 ₽'));
  await expect(page.getByTestId('exchange-countdown')).toContainText('Курс действует ещё');
  await expect(page.getByTestId('exchange-age')).toContainText('Тестовые курсы, обновлены');
  const submit = page.getByRole('button', { name: 'Обменять' });
  await expect(submit).toBeEnabled();
  await expectNoAxeViolations(page);
  await shot(page, 'quote');

  await submit.click();
  const modal = page.getByRole('dialog', { name: 'Обмен' });
  await expect(modal).toContainText(nbsp('1 000,00 ₽'));
  await expect(modal).toContainText(nbsp('Поступит 12,31 $'));
  await enterPin(page);
  await expect(modal.getByText('Обмен выполнен')).toBeVisible();
  // What left and what arrived, both.
  await expect(modal.getByTestId('exchange-result')).toHaveText(/^1\s000,00\s₽Зачислено\s\+12,31\s\$$/);
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  await expect(modal.getByTestId('receipt')).toContainText('Обмен');
  await expect(modal.getByTestId('receipt')).toContainText(nbsp('Зачислено+12,31 $'));
  await shot(page, 'receipt');
  await modal.getByRole('button', { name: 'Готово' }).click();

  // History: one operation with both amounts.
  await page.goto('/history');
  const row = page.locator('.transaction', { hasText: 'Обмен RUB → USD' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('transaction-amount')).toHaveText(nbsp('-1 000,00 ₽'));
  await expect(row.getByTestId('transaction-counter-amount')).toHaveText(nbsp('+12,31 $'));
  await shot(page, 'history');

  // The dollars go to a second user, who has no USD account yet.
  await page.goto('/wallet/save');
  await page.locator('.wallet-carousel__slide[data-currency="USD"] button').click();
  await page.getByLabel('Сумма', { exact: true }).fill('10');
  await page.getByLabel('Телефон получателя').fill(friend.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await expect(page.getByRole('button', { name: 'Перевести' })).toBeEnabled();
  await page.getByRole('button', { name: 'Перевести' }).click();
  const transfer = page.getByRole('dialog', { name: 'Перевод' });
  await expect(transfer).toContainText(nbsp('10,00 $'));
  await enterPin(page);
  await expect(transfer.getByText('Перевод выполнен')).toBeVisible();

  const wallet = await request.get('/v2/wallet', { headers: { Authorization: `Token ${friend.token}` } });
  const accounts = (await wallet.json()).results[0].accounts as { currency_code: string; balance: string }[];
  expect(accounts.find((account) => account.currency_code === 'USD')?.balance).toBe('10.00');
});

test('the account page opens the exchange from its own currency', async ({ page, request }) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/wallet');
  await page.getByTestId('account-list').getByRole('link').first().click();
  await page.getByTestId('account-exchange').click();
  await expect(page).toHaveURL(/\/wallet\/exchange\?from=RUB$/);
  await expect(page.getByLabel('Списать со счёта')).toHaveValue('RUB');
});
