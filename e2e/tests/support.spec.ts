/**
 * The support chat and the job system in real Chromium at 390 and 1440 px
 * (docs/decisions/support.md#support-chat): a person whose withdrawal failed writes to support from that
 * operation and sees the operator's answer without a reload; the operator answers from the queue beside the
 * person's card; an administrator retries a dead job and disables an operator. The server is its own
 * (PostgreSQL, the job system on, the back office on a port of its own), as in backoffice.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { PgBoss } from 'pg-boss';
import { createOperator, expectAccessible, opsTest, signInOperator } from './backoffice-helpers.ts';
import { colorScheme, PIN, registerPerson, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

const DECLINED_CARD = '4000000000000002';

const test = opsTest('support', { JOBS: 'on', JOBS_POLL_SECONDS: '0.5', SANDBOX_PAYOUT_DELAY_MS: '500' });

test.describe.configure({ timeout: 300_000 });

async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR}/support-${name}-${width}.png`, fullPage: true });
}

test('a person writes from a failed withdrawal and sees the answer live; the operator answers from the queue', async ({
  browser,
  page,
  request,
  ownServer,
}) => {
  const person = await registerPerson(request, { firstName: 'Ольга', lastName: 'Петрова' });
  await upgradeToSimplified(request, person);
  await topUp(request, person, '1000');
  // A withdrawal to the card the sandbox declines: it fails once the provider answers.
  const withdrawal = await request.post('/v2/wallet/withdrawal', {
    headers: { Authorization: `Token ${person.token}`, 'Idempotency-Key': randomUUID() },
    data: { amount: '100', pan: DECLINED_CARD, currency_code: 'RUB', pin: PIN },
  });
  expect(withdrawal.ok(), await withdrawal.text()).toBe(true);

  await signIn(page, person, '/history');
  const failed = page.locator('.transaction', { hasText: 'Не выполнено' }).first();
  await expect(failed).toBeVisible({ timeout: 20_000 });
  // The failed row opens the operation's page: no money actions there, only support.
  await failed.click();
  await page.locator('.operation').getByRole('link', { name: 'Поддержка' }).click({ timeout: 10_000 });
  await expect(page.getByRole('heading', { name: 'Поддержка', level: 1 })).toBeVisible();
  await expect(page.getByText('К сообщению будет приложена операция')).toBeVisible();
  await page.getByLabel('Сообщение').fill('Вывод на карту не прошёл. Что делать?');
  await page.getByTestId('support-send').click();
  const messages = page.getByTestId('support-messages');
  await expect(messages).toContainText('Вывод на карту не прошёл. Что делать?');
  await expect(messages).toContainText('Об операции');
  await expectAccessible(page);
  await shot(page, 'person-sent');

  // The operator, in a browser of their own: the queue, the conversation beside the card.
  const operator = await createOperator(ownServer, 'support');
  const back = await browser.newContext({
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    viewport: page.viewportSize(),
  });
  const ops = await back.newPage();
  await signInOperator(ops, ownServer, operator);
  await ops.getByRole('link', { name: 'Поддержка' }).click();
  const row = ops.getByRole('row', { name: /Петрова Ольга/ });
  await expect(row).toContainText(/ждёт \d+ мин/);
  await expectAccessible(ops);
  await shot(ops, 'queue');
  await row.getByRole('link', { name: /Петрова Ольга/ }).click();
  await expect(ops.getByText('Вывод на карту не прошёл. Что делать?')).toBeVisible();
  await expect(ops.getByText('Не выполнена')).toBeVisible();
  await ops.getByLabel('Готовый ответ').selectOption({ index: 3 });
  await expect(ops.getByLabel('Ответ', { exact: true })).toHaveValue(/Банк карты отклонил операцию/);
  await ops.getByRole('button', { name: 'Отправить' }).click();
  await expectAccessible(ops);
  await shot(ops, 'conversation');

  // The person's open app shows it without a reload, and the operator sees it was read.
  await expect(messages).toContainText('Банк карты отклонил операцию', { timeout: 15_000 });
  await expect(messages).toContainText('прочитано');
  await shot(page, 'person-answered');
  // The dark theme reads as well.
  await colorScheme(page, 'dark');
  // Colours change with a short transition: checked once it has ended.
  await page.waitForTimeout(600);
  await expectAccessible(page);
  await shot(page, 'person-answered-dark');
  await expect(ops.getByText('прочитано клиентом')).toBeVisible({ timeout: 15_000 });
  await back.close();
});

test('an administrator retries a dead job and disables an operator', async ({ page, ownServer }) => {
  // A dead job: a sandbox payout's delivery that ran out of retries.
  const boss = new PgBoss({
    connectionString: ownServer.databaseUrl,
    schema: 'pgboss',
    schedule: false,
    supervise: false,
  });
  await boss.start();
  await boss.send('sandbox-payout-dead', { id: randomUUID() });
  await boss.stop({ graceful: false, close: true });

  const admin = await createOperator(ownServer, 'admin');
  await signInOperator(page, ownServer, admin);
  await page.getByRole('link', { name: 'Фоновые задачи' }).click();
  const queue = page.getByRole('row', { name: /Тестовый провайдер выплат/ });
  await expect(queue).toBeVisible();
  const section = page.getByRole('region', { name: 'Тестовый провайдер выплат' });
  await expect(section).toContainText('Остановлена после повторов');
  await expectAccessible(page);
  await shot(page, 'jobs');
  await colorScheme(page, 'dark');
  // Colours change with a short transition: checked once it has ended.
  await page.waitForTimeout(600);
  await expectAccessible(page);
  await shot(page, 'jobs-dark');
  await colorScheme(page, 'light');
  await section.getByRole('button', { name: 'Запустить снова' }).click();
  await expect(section).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(page.getByText(`${admin.email} перезапустил фоновую задачу`)).toBeVisible();

  // Disabling an operator.
  const other = await createOperator(ownServer, 'support');
  await page.getByRole('link', { name: 'Операторы' }).click();
  const card = page.getByRole('article', { name: other.email });
  await card.getByLabel('Почему отключаем').fill('Ушёл из команды поддержки');
  await card.getByRole('button', { name: 'Отключить' }).click();
  await expect(card).toContainText('Отключён');
});
