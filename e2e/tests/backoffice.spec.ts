/**
 * The operators' back office in real Chromium at 390 and 1440 px
 * (docs/decisions/back-office.md#the-operators-back-office and
 * docs/decisions/back-office.md#the-back-office-on-the-apps-stack): an operator signs in with the one-time
 * password and the authenticator's code, replaces the password, freezes a person and approves their
 * identification from the queue; two finance operators refund a payment under four eyes; an administrator
 * adds an operator who sets their own credentials through a one-time link, then disables them (their session
 * ends at once); the lists read as words, and pass axe in the light and the dark theme. The server is its own
 * (manual identification on
 * PostgreSQL, so `npm run ops -- create-operator` runs beside it), with the back office on a free port
 * of its own, never the public one.
 */

import { formatPhone } from '@e-wallet/contract/phone';
import { type APIRequestContext, expect } from '@playwright/test';
import { generate } from 'otplib';
import {
  browserBeside,
  createOperator,
  expectAccessible,
  identify,
  opsToken,
  sendDocuments,
  shot,
  signInOperator,
  test,
} from './backoffice-helpers.ts';
import { colorScheme, type Person, PIN, registerPerson, rubBalance, topUp } from './wallet-fixtures.ts';

// Each test starts its own server and runs the command line beside it: slower than the shared one's.
test.describe.configure({ timeout: 300_000 });

const info = async (request: APIRequestContext, person: Person) =>
  (await request.get('/v2/wallet/auth/info', { headers: { Authorization: `Token ${person.token}` } })).json();

test('an operator signs in with the code, freezes a person and approves their identification', async ({
  page,
  request,
  ownServer,
}) => {
  const person = await registerPerson(request, { firstName: 'Алиса', lastName: 'Морозова' });
  await sendDocuments(request, person);
  const operator = await createOperator(ownServer, 'compliance');
  await signInOperator(page, ownServer, operator);

  // The search by phone, the card, the freeze: keyboard only.
  await expect(page.getByRole('heading', { name: 'Пользователи' })).toBeFocused();
  await page.getByLabel('Телефон, имя или e-mail').fill(person.national);
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Морозова Алиса' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Морозова Алиса' })).toBeFocused();
  await expect(page.getByTestId('user-status')).toHaveText('Активен');
  const freezing = page.getByRole('region', { name: 'Блокировка кошелька' });
  await freezing.getByLabel('Причина', { exact: true }).first().fill('Проверка по 115-ФЗ');
  await freezing.getByLabel('Причина', { exact: true }).first().press('Enter');
  await expect(page.getByTestId('user-status')).toHaveText('Заблокирован оператором');
  expect((await info(request, person)).is_frozen).toBe(true);
  // The person cannot lift it: only an operator may.
  const lift = await request.post('/v2/wallet/unfreeze', {
    headers: { Authorization: `Token ${person.token}` },
    data: { confirm_code: '0000', pin: PIN },
  });
  expect(((await lift.json()) as { code: string }).code).toBe('WALLET_FROZEN');
  // The card's audit names the operator and the reason.
  const audit = page.getByRole('region', { name: 'Действия операторов' });
  await expect(audit).toContainText(`${operator.email} заблокировал кошелёк: Морозова Алиса`);
  await expect(audit).toContainText('Кем заблокирован: не заблокирован → оператор');
  await expect(audit).toContainText('Причина: Проверка по 115-ФЗ');
  // Words, not a database: the phone as the app writes it, the device by name.
  // (The card's facts; the audit's sentence names the phone too.)
  await expect(
    page.getByText(formatPhone(person.phone), {
      exact: true,
    }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Сеансы' })).not.toContainText('Mozilla/5.0');
  await shot(page, 'card');

  // The identification queue shows the document data; approving raises the level.
  await page.getByRole('link', { name: 'Идентификация' }).click();
  const application = page.getByRole('article', { name: /Морозова Алиса Ивановна/ });
  await expect(application).toContainText('11223344595');
  await expect(application).toContainText('17 мая 1990 г.');
  await shot(page, 'queue');
  await application.getByRole('button', { name: 'Одобрить' }).click();
  await expect(page.getByText('Заявок нет')).toBeVisible();
  await expect.poll(async () => (await info(request, person)).identification_level?.name).toBe('simplified');

  // Back to the card: unfrozen with a reason, in English this time.
  await page.getByRole('button', { name: 'Switch to English' }).click();
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Phone, name or e-mail').fill('Морозова');
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Морозова Алиса' }).click();
  await expect(page.getByTestId('user-level')).toHaveText('Simplified');
  const unfreezing = page.getByRole('region', { name: 'Freezing the wallet' });
  await unfreezing.getByLabel('Reason').fill('Checked');
  await unfreezing.getByRole('button', { name: 'Unfreeze' }).click();
  await expect(page.getByTestId('user-status')).toHaveText('Active');
  // Lifting a freeze ends every session of the person
  // (docs/decisions/security-rules.md#hardening-third-round): a thief's too.
  const after = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(after.status()).toBe(401);
});

test('two operators refund a payment: the proposer cannot approve, another operator does', async ({
  browser,
  page,
  request,
  ownServer,
}) => {
  // Setup through the APIs: two people who may transfer, one pays the other by mistake.
  const admin = await createOperator(ownServer, 'admin');
  const adminToken = await opsToken(request, ownServer, admin);
  const payer = await registerPerson(request, { firstName: 'Олег', lastName: 'Крылов' });
  const payee = await registerPerson(request, { firstName: 'Инна', lastName: 'Белова' });
  for (const person of [payer, payee]) await identify(request, ownServer, adminToken, person);
  await topUp(request, payer, '1000');
  const paid = await request.post('/v2/wallet/transfer', {
    headers: { Authorization: `Token ${payer.token}` },
    data: { phone: payee.phone, amount: '300', currency_code: 'RUB', pin: PIN },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  expect(await rubBalance(request, payer)).toBe('700.00');

  // The first finance operator proposes the refund from the payer's card.
  const first = await createOperator(ownServer, 'finance');
  await signInOperator(page, ownServer, first);
  await page.getByLabel('Телефон, имя или e-mail').fill(payer.national);
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Крылов Олег' }).click();
  const row = page.getByRole('row', { name: /Перевод.*−300,00\s₽/ });
  await row.getByRole('button', { name: 'Предложить возврат' }).click();
  const form = page.getByRole('form', { name: 'Предложить возврат операции' });
  await expect(form.getByLabel('Сумма', { exact: true })).toHaveValue('300.00');
  await form.getByLabel('Причина', { exact: true }).fill('Ошибочный перевод, подтверждено получателем');
  await form.getByRole('button', { name: 'Предложить' }).click();
  await expect(form.getByRole('status')).toContainText('Возврат предложен');
  expect(await rubBalance(request, payer)).toBe('700.00');

  // Four eyes: the proposer's approval is refused, nothing moves.
  await page.getByRole('link', { name: 'Возвраты' }).click();
  const proposal = page.getByRole('row', { name: /Ошибочный перевод/ });
  await proposal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Возврат подтверждает другой оператор, не тот, кто его предложил',
  );
  expect(await rubBalance(request, payer)).toBe('700.00');

  // The second finance operator, in a browser of their own, approves: the money comes back once.
  const second = await createOperator(ownServer, 'finance');
  const other = await browserBeside(browser, page);
  await signInOperator(other, ownServer, second);
  await other.getByRole('link', { name: 'Возвраты' }).click();
  const theirs = other.getByRole('row', { name: /Ошибочный перевод/ });
  await expect(theirs).toContainText(first.email);
  await theirs.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(other.getByText('Предложений нет')).toBeVisible();
  expect(await rubBalance(request, payer)).toBe('1000.00');
  expect(await rubBalance(request, payee)).toBe('0.00');
  await other.getByRole('link', { name: 'Все' }).click();
  await expect(other.getByRole('row', { name: /Ошибочный перевод/ })).toContainText('Подтверждён');

  // The audit names both operators in sentences; the day's reconciliation finds the ledger and the
  // provider agree; no payout is stuck.
  await other.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(other.getByText(`${second.email} подтвердил возврат: Крылов Олег`)).toBeVisible();
  await expect(other.getByText(`${first.email} не смог подтвердить возврат`)).toBeVisible();
  await shot(other, 'audit');
  await other.getByRole('link', { name: 'Сверка' }).click();
  await expect(other.getByRole('row', { name: /sandbox.*Пополнения.*1.*1/ })).toBeVisible();
  await expect(other.getByRole('status').filter({ hasText: /^Расхождений нет$/ })).toBeVisible();
  await expect(other.getByRole('status').filter({ hasText: 'У магазинов расхождений нет' })).toBeVisible();
  await other.getByRole('link', { name: 'Выплаты' }).click();
  await expect(other.getByText('Выплат нет')).toBeVisible();
  await other.context().close();
});

test('an administrator adds an operator through a one-time link, then disables them; the lists read as words', async ({
  browser,
  page,
  request,
  ownServer,
}) => {
  const person = await registerPerson(request, { firstName: 'Вера', lastName: 'Соколова' });
  const admin = await createOperator(ownServer, 'admin');
  await signInOperator(page, ownServer, admin);

  // The lists page: everyone, newest first, without a search; named and formatted.
  await expect(page.getByText('Все пользователи, новые сверху')).toBeVisible();
  const newest = page.getByRole('row', { name: /Соколова Вера/ });
  await expect(newest).toContainText(formatPhone(person.phone));
  await expect(newest).toContainText('Анонимный');
  await expect(newest).toContainText('Активен');
  await shot(page, 'users');

  // A new operator: the administrator sees a link, never a password or a secret.
  await page.getByRole('link', { name: 'Операторы' }).click();
  // Typed only once the page is there: until then the field typed into is the users page's.
  await expect(page.getByRole('heading', { name: 'Операторы', level: 1 })).toBeVisible();
  const email = `new.${Date.now()}@ops.example`;
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Роль', { exact: true }).selectOption({ label: 'Поддержка' });
  await page.getByRole('button', { name: 'Добавить оператора' }).click();
  const link = await page.getByTestId('setup-link').inputValue();
  expect(link).toMatch(new RegExp(`^${ownServer.opsUrl}/setup#[A-Za-z0-9_-]{43}$`));
  const card = page.getByRole('article', { name: email });
  await expect(card).toContainText('Ждёт настройки');
  await expect(page.locator('body')).not.toContainText(/totp_secret|Секрет TOTP/);
  await expectAccessible(page);
  await shot(page, 'operators');

  // The new operator follows the link in their own browser: their own password, their own code.
  const newcomer = await browserBeside(browser, page);
  await newcomer.goto(link);
  await expect(newcomer.getByRole('heading', { name: 'Настройка входа' })).toBeVisible();
  await expect(newcomer.getByRole('img', { name: 'QR-код для приложения-аутентификатора' })).toBeVisible();
  const secret = (await newcomer.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await newcomer.getByLabel('Новый пароль (не короче 12 символов)').fill('my-very-own-password');
  await newcomer.getByLabel('Пароль ещё раз').fill('my-very-own-passwor');
  await newcomer.getByLabel('Код из приложения').fill(await generate({ secret }));
  await newcomer.getByRole('button', { name: 'Сохранить' }).click();
  await expect(newcomer.getByRole('alert')).toHaveText('Пароли не совпадают');
  await newcomer.getByLabel('Пароль ещё раз').fill('my-very-own-password');
  await newcomer.getByRole('button', { name: 'Сохранить' }).click();
  await expect(newcomer.getByRole('status')).toContainText('Готово. Теперь войдите');
  await expect(newcomer.getByRole('alert')).toHaveCount(0);
  await shot(newcomer, 'setup');
  await newcomer.getByRole('link', { name: 'Перейти ко входу' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Вход оператора' })).toBeVisible();
  await newcomer.getByLabel('E-mail', { exact: true }).fill(email);
  await newcomer.getByLabel('Пароль', { exact: true }).fill('my-very-own-password');
  // A fresh code: the one that finished the set-up is spent.
  await newcomer.waitForTimeout(Math.max(0, 30_000 - (Date.now() % 30_000)) + 200);
  await newcomer.getByLabel('Код из приложения-аутентификатора').fill(await generate({ secret }));
  await newcomer.getByRole('button', { name: 'Войти' }).click();
  await expect(newcomer.getByTestId('operator')).toContainText(`${email} · Поддержка`);
  // The link worked once.
  await newcomer.goto(link);
  await expect(newcomer.getByRole('alert')).toContainText('Ссылка недействительна или уже использована');
  await newcomer.goto(`${ownServer.opsUrl}/users`);
  await expect(newcomer.getByTestId('operator')).toContainText(email);

  // The administrator disables them: their session ends at once.
  await page.reload();
  const set = page.getByRole('article', { name: email });
  await expect(set).toContainText('Вход настроен');
  await set.getByLabel('Почему отключаем').fill('Перевёлся в другой отдел');
  await set.getByRole('button', { name: 'Отключить' }).click();
  await expect(set).toContainText('Отключён');
  await newcomer.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Вход оператора' })).toBeVisible();
  await newcomer.context().close();

  // The audit tells it as sentences with the details laid out.
  await page.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(page.getByText(`${admin.email} отключил оператора ${email}`)).toBeVisible();
  await expect(page.getByText(`${admin.email} добавил оператора ${email}`)).toBeVisible();
  await expect(page.getByText('Причина: Перевёлся в другой отдел')).toBeVisible();

  // Dark, as the system asks and as chosen; axe's contrast holds in both.
  await colorScheme(page, 'dark');
  await expectAccessible(page);
  await colorScheme(page, 'light');
  await page.getByLabel('Оформление').first().selectOption({ label: 'Тёмное' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectAccessible(page);
  await shot(page, 'audit-dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByLabel('Оформление').first().selectOption({ label: 'Как в системе' });
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
});
