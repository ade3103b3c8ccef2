/**
 * The operators' back office in real Chromium at 390 and 1440 px (docs/decisions.md sections 12 and
 * 19): an operator signs in with the one-time password and the authenticator's code, replaces the
 * password, freezes a person and approves their identification from the queue; two finance operators
 * refund a payment under four eyes; an administrator adds an operator who sets their own credentials
 * through a one-time link, then disables them (their session ends at once); the lists read as words,
 * and pass axe in the light and the dark theme. The server is its own (manual identification on
 * PostgreSQL, so `npm run ops -- create-operator` runs beside it), with the back office on a free port
 * of its own, never the public one.
 */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { formatPhone } from '@e-wallet/contract/phone';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import pg from 'pg';
import { defaultBuild, freePort, type RunningServer, startServer } from './brand-server.ts';
import { type Person, PIN, registerPerson, rubBalance, topUp } from './wallet-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENTS_KEY = 'e2e-documents-key-of-at-least-32-characters';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SNILS = { document_type: 'snils', document_number: '112-233-445 95', birth_date: '1990-05-17' };

interface OpsServer extends RunningServer {
  env: Record<string, string>;
  opsUrl: string;
}

const test = base.extend<{ ownServer: OpsServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  ownServer: async ({}, use) => {
    const name = `ewallet_e2e_ops_${process.pid}_${Date.now() % 1_000_000}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const opsPort = await freePort();
    const env = {
      KYC_PROVIDER: 'manual',
      DOCUMENTS_KEY,
      DATABASE_URL: url.toString(),
      OPS_PORT: String(opsPort),
      OPS_HOST: '127.0.0.1',
    };
    const server = await startServer({ webDist: defaultBuild(), env });
    try {
      await use({ ...server, env, opsUrl: `http://127.0.0.1:${opsPort}` });
    } finally {
      await server.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
  baseURL: async ({ ownServer }, use) => use(ownServer.url),
});

// Each test starts its own server and runs the command line beside it: slower than the shared one's.
test.describe.configure({ timeout: 300_000 });

/** Saves a screen when SHOTS_DIR asks, named by the viewport. */
async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR}/backoffice-${name}-${width}.png`, fullPage: true });
}

/** No WCAG A/AA violation (contrast included) on the screen as it is. */
async function expectAccessible(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

interface Operator {
  email: string;
  password: string;
  secret: string;
}

/** `npm run ops -- create-operator` against the server's database. */
function createOperator(server: OpsServer, role: string): Promise<Operator> {
  const email = `${role}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['apps/server/src/ops/main.ts', 'create-operator', '--email', email, '--role', role],
      {
        cwd: ROOT,
        env: { ...process.env, ...server.env, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) => {
      const password = /^password: (\S+)$/m.exec(out)?.[1];
      const secret = /^totp_secret: (\S+)$/m.exec(out)?.[1];
      if (code === 0 && password && secret) resolve({ email, password, secret });
      else reject(new Error(`create-operator: ${code} ${out}`));
    });
  });
}

/** The first sign-in in the browser, by keyboard: the one-time password is refused until replaced. */
async function signInOperator(page: Page, server: OpsServer, operator: Operator): Promise<void> {
  await page.goto(`${server.opsUrl}/`);
  await expect(page.getByRole('heading', { name: 'Вход оператора' })).toBeVisible();
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Пароль', { exact: true }).fill(operator.password);
  await page
    .getByLabel('Код из приложения-аутентификатора')
    .fill(await generate({ secret: operator.secret }));
  await page.getByLabel('Код из приложения-аутентификатора').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Задайте новый пароль вместо одноразового');
  const fresh = `${operator.password}-mine`;
  await expect(page.getByLabel('Новый пароль (не короче 12 символов)')).toBeFocused();
  await page.keyboard.type(fresh);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('operator')).toContainText(operator.email);
  operator.password = fresh;
}

/** An API session of an operator (for the setup the browser test does not show). */
async function opsToken(request: APIRequestContext, server: OpsServer, operator: Operator): Promise<string> {
  const answer = await request.post(`${server.opsUrl}/ops/v1/auth/login`, {
    data: {
      email: operator.email,
      password: operator.password,
      totp: await generate({ secret: operator.secret }),
      new_password: `${operator.password}-api`,
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  operator.password = `${operator.password}-api`;
  return ((await answer.json()) as { token: string }).token;
}

/** The person's documents sent for manual identification; answers the application id. */
async function sendDocuments(request: APIRequestContext, person: Person): Promise<string> {
  const headers = { Authorization: `Token ${person.token}` };
  const started = await request.post('/v2/wallet/identification-level/upgrade', { headers, data: {} });
  expect(started.ok(), await started.text()).toBe(true);
  const id = ((await started.json()) as { verification_url: string }).verification_url.split('=').at(-1)!;
  const sent = await request.post('/v2/wallet/identification-level/documents', {
    headers,
    data: { ...SNILS, full_name: `${person.lastName} ${person.firstName} Ивановна`, application_id: id },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return id;
}

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
  await freezing.getByLabel('Причина').first().fill('Проверка по 115-ФЗ');
  await freezing.getByLabel('Причина').first().press('Enter');
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
  // Lifting a freeze ends every session of the person (docs/decisions.md section 17): a thief's too.
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
  for (const person of [payer, payee]) {
    const id = await sendDocuments(request, person);
    const approved = await request.post(`${ownServer.opsUrl}/ops/v1/identifications/${id}/approve`, {
      headers: { Authorization: `Token ${adminToken}` },
    });
    expect(approved.ok(), await approved.text()).toBe(true);
  }
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
  await expect(form.getByLabel('Сумма')).toHaveValue('300.00');
  await form.getByLabel('Причина').fill('Ошибочный перевод, подтверждено получателем');
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
  const context = await browser.newContext({
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    viewport: page.viewportSize(),
  });
  const other = await context.newPage();
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
  await expect(other.getByRole('status')).toHaveText('Расхождений нет');
  await other.getByRole('link', { name: 'Выплаты' }).click();
  await expect(other.getByText('Выплат нет')).toBeVisible();
  await context.close();
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
  const email = `new.${Date.now()}@ops.example`;
  await page.getByLabel('E-mail').fill(email);
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
  const theirs = await browser.newContext({
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    viewport: page.viewportSize(),
  });
  const newcomer = await theirs.newPage();
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
  await newcomer.getByLabel('E-mail').fill(email);
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
  await theirs.close();

  // The audit tells it as sentences with the details laid out.
  await page.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(page.getByText(`${admin.email} отключил оператора ${email}`)).toBeVisible();
  await expect(page.getByText(`${admin.email} добавил оператора ${email}`)).toBeVisible();
  await expect(page.getByText('Причина: Перевёлся в другой отдел')).toBeVisible();

  // Dark, as the system asks and as chosen; axe's contrast holds in both.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByLabel('Оформление').first().selectOption({ label: 'Тёмное' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectAccessible(page);
  await shot(page, 'audit-dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByLabel('Оформление').first().selectOption({ label: 'Как в системе' });
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
});
