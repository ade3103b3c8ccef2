/**
 * Asking and repeating in the browser
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers): a request
 * made and its link copied, the link opened signed out by a second person who signs in, comes back to it and
 * pays with the PIN; 'Повторить' on a transfer in the history fills the transfer form and sends again with
 * the
 * PIN; a scheduled transfer created with the PIN, paused and resumed.
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  type Person,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `/tmp/shots/requests-${name}-${width}.png` });
}

async function enterPin(page: Page, pin: string) {
  const modal = page.getByRole('dialog');
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(pin);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
}

/** The newest code sent to the phone once `count` texts have gone to it. */
async function codeNumber(request: APIRequestContext, phone: string, count: number): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      const results = (await answer.json()).results as { code: string }[];
      code = results.length >= count ? (results[0]?.code ?? '') : '';
      return code;
    })
    .toMatch(/^\d{4}$/);
  return code;
}

async function transfer(request: APIRequestContext, from: Person, to: Person, amount: string) {
  const sent = await request.post('/v2/wallet/transfer', {
    data: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
    headers: { Authorization: `Token ${from.token}`, 'Idempotency-Key': randomUUID() },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
}

test('a request’s link is shared, and a second person opens it signed out, signs in and pays it', async ({
  page,
  browser,
  request,
}) => {
  const [asker, payer] = await Promise.all([
    registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, payer, '1000');
  await upgradeToSimplified(request, payer);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, asker, '/');
  await page.getByRole('link', { name: 'Запросить' }).click();
  await expect(page.getByRole('heading', { name: 'Запрос денег', level: 1 })).toBeVisible();
  await page.getByLabel('Сумма', { exact: true }).fill('250');
  await page.getByLabel('Комментарий').fill('Билеты в кино');
  await page.getByRole('button', { name: 'Создать запрос' }).click();
  const url = (await page.getByTestId('request-url').textContent()) ?? '';
  expect(url).toMatch(/\/pay\/r\/[A-Za-z0-9_-]{20,}$/);
  await page.getByRole('button', { name: 'Скопировать ссылку' }).click();
  await expect(page.getByText('Ссылка скопирована')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(page.getByTestId('outgoing-requests')).toContainText('Ожидает оплаты');
  await shot(page, 'share');

  // The payer opens the link signed out: sign in first, then back to the request.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined, locale: 'ru-RU' });
  const payerPage = await other.newPage();
  await payerPage.goto(new URL(url).pathname);
  await expect(payerPage).toHaveURL(/\/auth$/);
  await payerPage.getByRole('link', { name: 'Войти' }).click();
  await payerPage.getByLabel('Телефон', { exact: true }).pressSequentially(payer.national);
  await payerPage.getByRole('button', { name: 'Получить код' }).click();
  const code = await codeNumber(request, payer.phone, 2);
  await payerPage.getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
  await payerPage.keyboard.type(code);
  await payerPage.getByRole('button', { name: 'Войти' }).click();
  await expect(payerPage).toHaveURL(new RegExp(`${new URL(url).pathname}$`));

  const card = payerPage.getByTestId('pay-request');
  await expect(card).toContainText('Анна С.');
  await expect(card).toContainText('Билеты в кино');
  await expect(payerPage.getByTestId('pay-request-amount')).toHaveText('250,00\u00a0₽');
  await shot(payerPage, 'pay-link');
  await card.getByRole('button', { name: 'Оплатить' }).click();
  await enterPin(payerPage, PIN);
  await expect(payerPage.getByRole('dialog').getByText('Запрос оплачен')).toBeVisible();
  await payerPage.getByRole('dialog').getByRole('button', { name: 'Готово' }).click();
  await expect(payerPage.getByTestId('pay-request-status')).toHaveText('Оплачен');
  await other.close();

  expect(await rubBalance(request, asker)).toBe('250.00');
  // Live, without a reload: the asker's request is paid, from Ivan, with its comment.
  const outgoing = page.getByTestId('outgoing-requests');
  await expect(outgoing.getByTestId('outgoing-request-status')).toHaveText('Оплачен');
  await expect(outgoing).toContainText('От: Иван П.');
  await expect(outgoing).toContainText('Билеты в кино');
});

test('a request by phone shows on the payer’s Home with pay and decline', async ({ page, request }) => {
  const [asker, payer] = await Promise.all([
    registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' }),
    registerPerson(request),
  ]);
  await topUp(request, payer, '500');
  await upgradeToSimplified(request, payer);
  for (const amount of ['120', '80']) {
    const made = await request.post('/v2/wallet/request', {
      data: { amount, currency_code: 'RUB', phone: payer.phone },
      headers: { Authorization: `Token ${asker.token}` },
    });
    expect(made.ok(), await made.text()).toBe(true);
  }
  await signIn(page, payer, '/');
  const incoming = page.getByTestId('incoming-requests');
  await expect(incoming.getByRole('listitem')).toHaveCount(2);
  await shot(page, 'incoming');
  await incoming
    .getByRole('listitem')
    .filter({ hasText: '80,00' })
    .getByRole('button', { name: 'Отклонить' })
    .click();
  await expect(incoming.getByRole('listitem')).toHaveCount(1);
  await incoming.getByRole('button', { name: 'Оплатить' }).click();
  await enterPin(page, PIN);
  await expect(page.getByRole('dialog').getByText('Запрос оплачен')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Готово' }).click();
  await expect(page.getByTestId('incoming-requests')).toHaveCount(0);
  expect(await rubBalance(request, asker)).toBe('120.00');
});

test('‘Повторить’ on a transfer in the history fills the form, and the PIN sends it again', async ({
  page,
  request,
}) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, sender, '1000');
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);
  await transfer(request, sender, recipient, '150');

  await signIn(page, sender, '/history');
  // The row opens the operation's page, where 'Повторить' is.
  await page.locator('.transaction', { hasText: 'Перевод' }).first().click();
  await page
    .getByRole('link', { name: /^Повторить операцию/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/wallet\/save\?repeat=/);
  await expect(page.getByLabel('Сумма', { exact: true })).toHaveValue('150,00');
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await expect(page.getByTestId('recent-recipients')).toContainText('Иван П.');
  await shot(page, 'repeat');
  const send = page.getByRole('button', { name: 'Перевести' });
  await expect(send).toBeEnabled();
  await send.click();
  await enterPin(page, PIN);
  await expect(page.getByRole('dialog').getByText('Перевод выполнен')).toBeVisible();
  await expect.poll(() => rubBalance(request, recipient)).toBe('300.00');
});

test('‘Сохранить как шаблон’ shows the name and amount to set; the template is a card that fills the form', async ({
  page,
  request,
}) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, sender, '1000');
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);

  await signIn(page, sender, '/wallet/save');
  await page.getByLabel('Сумма', { exact: true }).fill('75');
  await page.getByLabel('Телефон получателя').fill(recipient.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await page.getByRole('button', { name: 'Сохранить как шаблон' }).click();
  const dialog = page.getByRole('dialog', { name: 'Сохранить как шаблон' });
  // Nothing is saved yet: the name and amount are shown and can be changed.
  await expect(dialog.getByLabel('Название шаблона')).toHaveValue('Иван П.');
  await expect(dialog.getByLabel('Сумма', { exact: true })).toHaveValue('75,00');
  await dialog.getByLabel('Название шаблона').fill('Аренда');
  await dialog.getByLabel('Сумма', { exact: true }).fill('500,5');
  await dialog.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Шаблон «Аренда» сохранён');
  await dialog.getByRole('button', { name: 'Закрыть', exact: true }).first().click();

  const card = page.getByTestId('templates').getByRole('listitem');
  await expect(card).toContainText('Аренда');
  await expect(card).toContainText(/Иван П\. · 500,50\s₽/);
  await page.getByLabel('Сумма', { exact: true }).fill('');
  await card.getByRole('button', { name: /^Аренда/ }).click();
  await expect(page.getByLabel('Сумма', { exact: true })).toHaveValue('500,50');
  await card.getByRole('button', { name: 'Удалить шаблон «Аренда»' }).click();
  await expect(page.getByTestId('templates')).toHaveCount(0);
});

test('a scheduled transfer is created with the PIN, paused and resumed', async ({ page, request }) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await topUp(request, sender, '1000');
  await Promise.all([upgradeToSimplified(request, sender), upgradeToSimplified(request, recipient)]);

  await signIn(page, sender, '/wallet/save');
  await page.getByRole('link', { name: 'Регулярные переводы' }).click();
  await expect(page.getByRole('heading', { name: 'Регулярные переводы', level: 1 })).toBeVisible();
  await expect(page.getByText('Регулярных переводов пока нет')).toBeVisible();
  await page.getByLabel('Телефон получателя').fill(recipient.national);
  await page.getByLabel('Сумма', { exact: true }).fill('500');
  await page.getByLabel('Периодичность').selectOption('week');
  // The PIN in four boxes, as everywhere else.
  await page.getByLabel('Цифра 1 из 4').click();
  await page.keyboard.type(PIN);
  await page.getByRole('button', { name: 'Запланировать' }).click();
  await expect(page.getByText('Регулярный перевод создан')).toBeVisible();

  const item = page.getByTestId('schedule');
  await expect(item).toContainText('Иван П.');
  await expect(item).toContainText('каждую неделю');
  await expect(item.getByTestId('schedule-status')).toContainText('Активен');
  await item.getByRole('button', { name: 'Приостановить' }).click();
  await expect(item.getByTestId('schedule-status')).toHaveText('Приостановлен');
  await item.getByRole('button', { name: 'Возобновить' }).click();
  await expect(item.getByTestId('schedule-status')).toContainText('Активен');
  await expect(item.getByTestId('schedule-status')).toContainText('Следующий перевод');
  await shot(page, 'schedules');
});
