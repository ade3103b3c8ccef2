/**
 * Screens before the PIN and around the money sheet, on a phone and a desktop, light and dark, in
 * Russian and English: the language switch before sign-in (kept on the device, carried into the
 * codes, an English browser preselecting English); a split that counts the requester; an anonymous
 * payer told about identification before any PIN; a transfer waiting for the trusted person, its
 * reasons as a list, the sheet following the approval live over an emptied form; a cancellation
 * asked once. Screenshots go to /tmp/shots/pin-*.png (the ones kept are in docs/screenshots/).
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { expectScreenInLanguage, type ScreenLanguage } from './language-check.ts';
import {
  auth,
  lightAndDark,
  nameTrustedPerson,
  PIN,
  registerPerson,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });
// Every screen is read by axe in light and dark: more than the default minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

const nbsp = (text: string) => text.replace(/ (?=\d{3}\b|₽)/g, '\u00a0');

async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `/tmp/shots/pin-${name}-${width}.png`, fullPage: true });
}

/** Axe (serious and critical) and the language check, then a screenshot in light and in dark. */
async function look(page: Page, name: string, language: ScreenLanguage, data: string[] = []) {
  await lightAndDark(page, async (scheme) => {
    await expectNoAxeViolations(page, { serious: true });
    await shot(page, `${name}${scheme}`);
  });
  await expectScreenInLanguage(page, language, data);
}

async function useLanguage(page: Page, language: ScreenLanguage) {
  await page.evaluate((value) => localStorage.setItem('e-wallet-language', value), language);
  await page.reload();
}

async function latestSms(request: APIRequestContext, phone: string): Promise<string> {
  const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return ((await answer.json()).results as { text: string; code: string }[]).find((sms) => sms.code !== '')
    ?.text as string;
}

test('before sign-in every screen switches language, the choice stays and reaches the code', async ({
  page,
  request,
  browser,
}) => {
  const maria = await registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' });
  await page.goto('/auth');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const toggle = page.getByTestId('auth-language');
  await expect(toggle).toHaveText('English');
  await look(page, 'landing-ru', 'ru');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(toggle).toHaveText('Русский');
  await look(page, 'landing-en', 'en');

  // Kept on the device: registration and sign-in open in English after a reload.
  await page.goto('/auth/register');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await look(page, 'register-en', 'en');
  await page.goto('/auth/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await look(page, 'login-en', 'en');
  // Back to Russian on the sign-in page (a +7 number is Russian's default country), then the code step.
  await page.getByTestId('auth-language').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await page.getByLabel('Телефон', { exact: true }).fill(maria.national);
  await page.getByRole('button', { name: 'Получить код' }).click();
  await expect.poll(() => latestSms(request, maria.phone)).toMatch(/^Код \d{4}: вход в E-Wallet\./);
  await look(page, 'code-ru', 'ru');
  await page.getByTestId('auth-language').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await look(page, 'code-en', 'en');

  // A browser that asks English first opens in English; Russian stays the default otherwise.
  const english = await browser.newContext({ locale: 'en-US', viewport: page.viewportSize() });
  const fresh = await english.newPage();
  await fresh.goto('/auth');
  await expect(fresh.locator('html')).toHaveAttribute('lang', 'en');
  await expect(fresh.getByTestId('auth-language')).toHaveText('Русский');
  await english.close();
});

test('a split counts me by default, refuses my own number in its own words, and shows whole phones', async ({
  page,
  request,
}) => {
  const [host, ...friends] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
    registerPerson(request, { firstName: 'Олег', lastName: 'Сидоров' }),
  ]);
  await signIn(page, host, '/wallet/request?split=1500.00');
  const form = page.getByRole('form', { name: 'Разделить счёт' });
  await expect(form.getByLabel('Включая меня: я плачу свою часть сам')).toBeChecked();
  for (const [index, friend] of friends.entries())
    await form.getByLabel(`Телефон участника ${index + 1}`).pressSequentially(friend.national);
  await expect(form.getByTestId('split-each')).toHaveText(
    nbsp('С каждого участника: 500,00 ₽. Ваша часть: 500,00 ₽.'),
  );
  // Every digit of every phone is in view: no field scrolls its own text.
  const clipped = await form
    .locator('input[type="tel"]')
    .evaluateAll(
      (inputs) =>
        (inputs as HTMLInputElement[]).filter((input) => input.scrollWidth > input.clientWidth).length,
    );
  expect(clipped).toBe(0);
  await form.scrollIntoViewIfNeeded();
  await look(page, 'split-ru', 'ru', ['Мария', 'Соколова']);

  await form.getByRole('button', { name: 'Добавить участника' }).click();
  await form.getByLabel('Телефон участника 3').pressSequentially(host.national);
  await form.getByRole('button', { name: 'Отправить запросы' }).click();
  await expect(form.getByText('Нельзя запросить деньги у самого себя: уберите свой номер')).toBeVisible();
  await shot(page, 'split-self');

  await useLanguage(page, 'en');
  const english = page.getByRole('form', { name: 'Split a bill' });
  await expect(english.getByLabel('Include me: I pay my own share')).toBeChecked();
  // A +7 wallet splits among +7 phones in English too, once its own phone is known.
  await expect(english.locator('.split-form__person').first()).toContainText('+7');
  for (const [index, friend] of friends.entries())
    await english.getByLabel(`Phone of person ${index + 1}`).pressSequentially(friend.national);
  await expect(english.getByTestId('split-each')).toHaveText(
    'Each person pays: ₽500.00. Your share: ₽500.00.',
  );
  await look(page, 'split-en', 'en', ['Мария', 'Соколова', 'М']);
  await english.getByRole('button', { name: 'Send the requests' }).click();
  await expect(english.getByRole('status')).toHaveText('Requests were sent to 2 people');
});

test('an anonymous payer learns before the PIN that transfers need identification, with the way there', async ({
  page,
  request,
}) => {
  const [asker, payer] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, payer, '1000');
  const made = await request.post('/v2/wallet/request', {
    headers: auth(asker),
    data: { amount: '300', currency_code: 'RUB', phone: payer.phone },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const link = new URL(((await made.json()) as { url: string }).url).pathname;

  await signIn(page, payer, link);
  const box = page.getByTestId('pay-request');
  await expect(box.getByTestId('check-problems')).toContainText(
    'Переводы другим пользователям недоступны, пожалуйста, пройдите идентификацию.',
  );
  await expect(box.getByRole('button', { name: 'Оплатить' })).toBeDisabled();
  await expect(box.getByRole('link', { name: 'Пройти идентификацию' })).toBeVisible();
  await expect(page.getByTestId('pay-modal')).toHaveCount(0);
  await look(page, 'request-identify-ru', 'ru', ['Мария С.']);

  await useLanguage(page, 'en');
  await expect(box.getByTestId('check-problems')).toContainText(
    'Transfers to other users are unavailable, please complete identification.',
  );
  await look(page, 'request-identify-en', 'en', ['Мария С.', 'Иван', 'Петров', 'И']);
  await box.getByRole('link', { name: 'Get identified' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('settings-identification')).toBeVisible();
});

test('a transfer waiting for the trusted person lists its reasons, follows the approval live, and cancelling asks once', async ({
  page,
  request,
}) => {
  const [payer, payee, olga] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
    registerPerson(request, { firstName: 'Ольга', lastName: 'Иванова' }),
  ]);
  await Promise.all([upgradeToSimplified(request, payer), upgradeToSimplified(request, payee)]);
  await topUp(request, payer, '5000');
  await nameTrustedPerson(request, payer, olga, '1000');

  await signIn(page, payer, '/wallet/save');
  await page.getByLabel('Телефон получателя').fill(payee.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await page.getByLabel('Сумма', { exact: true }).fill('2500');
  await page.getByRole('button', { name: 'Перевести' }).click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();

  await expect(modal.getByText('Операция ждёт одобрения')).toBeVisible();
  await expect(modal.getByTestId('pay-held-reason').getByRole('listitem')).toHaveText([
    nbsp('Сумма от 1 000 ₽ — такие операции подтверждает Ольга И.'),
  ]);
  // Behind the sheet the form starts afresh: no check of the money just held.
  await expect(page.getByLabel('Сумма', { exact: true })).toHaveValue('');
  await expect(page.getByTestId('check-problems')).toBeEmpty();
  await look(page, 'awaiting-ru', 'ru', ['Иван П.', 'Ольга И.']);

  // Olga approves from her phone: the sheet says so at once.
  const approvals = await request.get('/v2/wallet/approvals', { headers: auth(olga) });
  const id = ((await approvals.json()) as { results: { id: string }[] }).results[0]!.id;
  const approved = await request.post(`/v2/wallet/approvals/${id}/approve`, {
    headers: { ...auth(olga), 'Idempotency-Key': randomUUID() },
    data: { pin: PIN },
  });
  expect(approved.ok(), await approved.text()).toBe(true);
  await expect(modal.getByTestId('pay-held-outcome')).toHaveText(
    'Операция одобрена и выполнена: деньги отправлены.',
  );
  await look(page, 'approved-ru', 'ru');
  await modal.getByRole('status').getByRole('button', { name: 'Закрыть' }).click();

  // Another one waits; cancelling it asks once.
  const waiting = await request.post('/v2/wallet/transfer', {
    headers: { ...auth(payer), 'Idempotency-Key': randomUUID() },
    data: { phone: payee.phone, amount: '1500', currency_code: 'RUB', pin: PIN },
  });
  expect(waiting.status()).toBe(202);
  await page.goto('/wallet/holds');
  const card = page.getByTestId('hold-card').first();
  await expect(card.getByRole('listitem')).toHaveText([
    nbsp('Сумма от 1 000 ₽ — такие операции подтверждает Ольга И.'),
  ]);
  await card.getByRole('button', { name: 'Отменить' }).click();
  const ask = card.getByTestId('hold-cancel-ask');
  await expect(ask).toContainText(nbsp('Отменить операцию 1 500,00 ₽? Деньги вернутся на счёт.'));
  await look(page, 'cancel-ask-ru', 'ru', ['Иван П.', 'Ольга И.']);
  await ask.getByRole('button', { name: 'Да, отменить' }).click();
  await expect(card).toContainText('Отменена');

  await useLanguage(page, 'en');
  await expect(card.getByRole('listitem').first()).toHaveText(
    '₽1,000 or more — Olga I. approves such operations',
  );
  await look(page, 'holds-en', 'en', ['Иван П.', 'Ольга И.', 'Мария', 'Соколова', 'М']);
});
