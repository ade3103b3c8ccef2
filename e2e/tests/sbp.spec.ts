/**
 * СБП in the browser, on a phone and a desktop, against the real server and its sandbox providers
 * (docs/decisions/sbp.md): a person sends by СБП to another bank from the transfer screen, picks the bank
 * by search, sees the recipient's masked name before the PIN, then the receipt and the history row with the
 * bank and the masked phone, with the fee configured for the browser tests (0.5%) shown before the PIN and
 * in the receipt; repeats it from the history into the СБП form and saves the payee as a template; and tops
 * up by СБП through the sandbox's СБП page (a QR, pay). Light and dark screenshots go to /tmp/shots/sbp-*.png.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import {
  lightAndDark,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

async function shots(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await lightAndDark(page, async (scheme) => {
    await page.screenshot({ path: `/tmp/shots/sbp-${name}-${width}${scheme}.png` });
  });
}

/** The words of these elements that lie on more than one line. */
function brokenWords(names: Locator): Promise<string[]> {
  return names.evaluateAll((nodes) =>
    nodes.flatMap((node) => {
      const text = node.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      return [...(text.textContent ?? '').matchAll(/\S+/g)].flatMap((word) => {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        return tops.size > 1 ? [word[0]] : [];
      });
    }),
  );
}

async function enterPin(page: Page, pin: string) {
  const modal = page.getByRole('dialog');
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(pin);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
}

test('send by СБП to another bank: the name before the PIN, then the receipt and the history', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await topUp(request, person, '5000');
  await upgradeToSimplified(request, person);
  await signIn(page, person, '/wallet/save');
  await expect(page.getByRole('heading', { name: 'Перевод', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'СБП', exact: true }).click();
  const form = page.getByTestId('sbp-form');
  await form.getByLabel('Сумма', { exact: true }).fill('700');
  await form.getByLabel('Телефон получателя').fill('9161234567');
  // The bank by search: the list narrows as the name is typed.
  await form.getByLabel('Найти банк').fill('тестовый');
  await expect(form.getByRole('button', { name: 'Сбербанк' })).toHaveCount(0);
  // Each bank's name wraps at its spaces: no word broken in the middle ('получател|я').
  await expect(form.locator('.sbp-banks__name')).toHaveCount(3);
  expect(await brokenWords(form.locator('.sbp-banks__name'))).toEqual([]);
  // In the middle of the screen: the phone's bottom menu would cover the last row.
  await form.locator('.sbp-banks').evaluate((node) => node.scrollIntoView({ block: 'center' }));
  await lightAndDark(page, async (scheme) => {
    await form.locator('.sbp-banks').screenshot({
      path: `/tmp/shots/sbp-banks-${page.viewportSize()?.width ?? 0}${scheme}.png`,
    });
  });
  await form.getByRole('button', { name: 'Тестовый банк', exact: true }).click();
  const recipient = page.getByTestId('sbp-recipient');
  await expect(recipient).toContainText('Получатель в банке Тестовый банк');
  await expect(recipient).toContainText(/\p{L}+ \p{L}\./u);
  const name = (await recipient.locator('.recipient-card__name').textContent()) ?? '';
  // The fee configured for the browser tests (SBP_FEE_BASIS_POINTS=50), before the PIN.
  await expect(page.getByTestId('sbp-fee')).toHaveText(nbsp('Комиссия 3,50 ₽, всего спишется 703,50 ₽'));
  const submit = page.getByRole('button', { name: 'Перевести по СБП' });
  await expect(submit).toBeEnabled();
  await expectNoAxeViolations(page);
  await shots(page, 'transfer');
  await page.getByTestId('sbp-fee').scrollIntoViewIfNeeded();
  await shots(page, 'fee');

  await submit.click();
  const modal = page.getByRole('dialog', { name: 'Перевод по СБП' });
  // The recipient's name and the bank before the PIN.
  await expect(modal).toContainText(`${name} · Тестовый банк`);
  await expect(modal.getByText(nbsp('700,00 ₽'))).toBeVisible();
  await expect(modal.getByTestId('pay-summary-note')).toHaveText(
    nbsp('Комиссия 3,50 ₽, всего спишется 703,50 ₽'),
  );
  await shots(page, 'pin');
  await enterPin(page, PIN);
  await expect(modal.getByText('Перевод по СБП отправлен')).toBeVisible();
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  const receipt = modal.getByTestId('receipt');
  await expect(receipt).toContainText('Перевод по СБП: Тестовый банк, +7 916 ***-**-67');
  await expect(receipt).toContainText(nbsp('3,50 ₽'));
  await expect(modal.getByTestId('receipt-status')).toContainText('Выполнено', { timeout: 15_000 });
  await shots(page, 'receipt');
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect(modal).toBeHidden();
  expect(await rubBalance(request, person)).toBe('4296.50');

  await page.goto('/history');
  // One row for the transfer, its fee on it (docs/decisions/sbp.md#fees); no row of its own.
  const row = page
    .locator('.transaction')
    .filter({ hasText: 'Перевод по СБП: Тестовый банк, +7 916 ***-**-67' });
  await expect(row).toHaveCount(1);
  // Money sent to a person, not taken to one's own card.
  await expect(row).toContainText('Переводы людям');
  await expect(row).not.toContainText('Снятие на карту');
  await expect(row.getByTestId('transaction-fee')).toHaveText(`комиссия ${nbsp('3,50 ₽')}`);
  await expect(page.getByText('Комиссия за перевод по СБП')).toHaveCount(0);
  await shots(page, 'history');

  // 'Повторить' opens the СБП form filled: the phone, the bank, the amount; the PIN is still asked.
  await row.click();
  await expect(page.getByTestId('operation-fee')).toHaveText(nbsp('3,50 ₽'));
  await expectNoAxeViolations(page);
  await shots(page, 'operation');
  await page.getByRole('link', { name: /Повторить операцию/ }).click();
  const again = page.getByTestId('sbp-form');
  await expect(again.getByLabel('Сумма', { exact: true })).toHaveValue('700,00');
  await expect(again.getByRole('button', { name: 'Тестовый банк', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('sbp-recipient')).toContainText(name);
  // Saved as a template, it shows among the templates with its bank.
  await again.getByRole('button', { name: 'Сохранить получателя' }).click();
  const dialog = page.getByTestId('template-dialog');
  await dialog.getByLabel('Название шаблона').fill('Брату');
  await dialog.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(dialog.getByText('Шаблон «Брату» сохранён')).toBeVisible();
  await dialog.locator('.button--primary', { hasText: 'Закрыть' }).click();
  await expect(page.getByTestId('templates')).toContainText('СБП · Тестовый банк');
  await shots(page, 'repeat');
});

test('top up by СБП through the sandbox page: a QR, pay, the money is in', async ({ page, request }) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/wallet/topup');
  await page.getByRole('button', { name: 'Через СБП' }).click();
  await expect(page.getByText(/Оплата через СБП в приложении вашего банка/)).toBeVisible();
  await page.getByLabel('Сумма', { exact: true }).fill('300');
  await shots(page, 'topup');
  await page.getByRole('button', { name: 'Пополнить' }).click();
  await expect(page).toHaveURL(/\/sandbox\/pay\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Оплата через СБП' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR-код для оплаты через СБП' })).toBeVisible();
  await expect(page.getByLabel('Номер карты')).toHaveCount(0);
  await shots(page, 'topup-page');
  await page.getByRole('button', { name: 'Оплатить через СБП' }).click();
  await expect(page).toHaveURL(/\/wallet\/payments\/finish\?order=[0-9a-f-]{36}$/);
  const modal = page.getByRole('dialog', { name: 'Пополнение' });
  await expect(modal.getByText('Кошелёк пополнен')).toBeVisible({ timeout: 15_000 });
  await expect(modal.getByTestId('top-up-amount')).toHaveText(nbsp('Зачислено 300,00 ₽'));
  expect(await rubBalance(request, person)).toBe('300.00');
});

test('in English the СБП recipient is named in Latin letters before the PIN', async ({ page, request }) => {
  const person = await registerPerson(request);
  await topUp(request, person, '5000');
  await upgradeToSimplified(request, person);
  await page.addInitScript(() => localStorage.setItem('e-wallet-language', 'en'));
  await signIn(page, person, '/wallet/save');
  await page.getByRole('button', { name: 'SBP', exact: true }).click();
  const form = page.getByTestId('sbp-form');
  await form.getByLabel('Amount', { exact: true }).fill('700');
  await form.getByLabel('Recipient’s phone').fill('9161234567');
  // The sandbox's banks are named in Russian only (as its directory has them).
  await form.getByLabel('Find a bank').fill('тестовый');
  await form.getByRole('button', { name: 'Тестовый банк', exact: true }).click();
  const recipient = page.getByTestId('sbp-recipient');
  await expect(recipient.locator('.recipient-card__name')).toHaveText(/^[A-Za-z'-]+ [A-Z]\.$/);
  await expectNoAxeViolations(page);
  await shots(page, 'transfer-en');
});

test('the tariffs page states the СБП fee and the merchants’ fee as configured', async ({
  page,
  request,
}) => {
  const terms = await (await request.get('/v2/wallet/terms')).json();
  const tariffs = terms.documents.find((d: { kind: string }) => d.kind === 'tariffs');
  await page.goto(tariffs.url);
  await expect(page.getByRole('heading', { name: 'Тарифы', level: 1 })).toBeVisible();
  const row = (name: RegExp) => page.getByRole('row', { name });
  await expect(row(/Перевод по СБП/)).toContainText(nbsp('0,50 % от суммы'));
  await expect(row(/Пополнение через СБП/)).toContainText('Бесплатно');
  await expect(row(/Приём платежей магазином/)).toContainText(nbsp('1,50 % от суммы'));
  await expectNoAxeViolations(page);
  await shots(page, 'tariffs');
});
