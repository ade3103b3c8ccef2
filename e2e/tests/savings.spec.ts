/**
 * Managing money in the browser (docs/decisions/managing-money.md#managing-money-categories-budgets-goals),
 * on a phone and a desktop: a category chosen on a history row shows in the statistics by category; a monthly
 * budget shows this month's progress; a savings goal rounds a QR payment up and shows the round-up in its
 * history; a weekly deposit is set on a goal with the PIN, shown on the goal and among the schedules, and
 * stopped; a dinner paid by one is split among three friends from the history, and the list shows who has
 * paid. Screenshots go to SHOTS_DIR when it is set.
 */
import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { PIN, payMerchant, registerPerson, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

// SHOTS_SCHEME=dark takes the screenshots in the dark theme.
test.use({ serviceWorkers: 'block', colorScheme: process.env.SHOTS_SCHEME === 'dark' ? 'dark' : 'light' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

async function shot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: `${process.env.SHOTS_DIR}/savings-${name}-${width}-${process.env.SHOTS_SCHEME ?? 'light'}.png`,
    fullPage: true,
  });
}

const expectNoSeriousAxe = (page: Page) => expectNoAxeViolations(page, { serious: true });

test('a category chosen on an operation shows in the statistics by category', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' });
  await topUp(request, person, '3000');
  await payMerchant(request, person, '500');

  await signIn(page, person, '/history');
  // The row shows its category; it is chosen on the operation's page.
  const row = page.locator('.transaction', { hasText: 'ООО «Три кита»' }).first();
  await expect(row).toContainText('Другое');
  await row.click();
  const select = page.getByTestId('category-select');
  await expect(select.locator('option:checked')).toHaveText('Другое');
  await select.selectOption({ label: 'Кафе и рестораны' });
  await expect(select.locator('option:checked')).toHaveText('Кафе и рестораны');
  await page.getByRole('link', { name: 'К истории' }).click();

  await page.getByRole('button', { name: 'По категориям' }).click();
  const stats = page.getByTestId('category-stats');
  await expect(stats.locator('[data-category="cafes"]')).toContainText('Кафе и рестораны');
  await expect(stats.locator('[data-category="cafes"]')).toContainText(nbsp('500,00 ₽'));
  await expect(stats.locator('[data-category="cafes"]')).toContainText('100%');
  await expectNoSeriousAxe(page);
  await shot(page, 'categories');

  // History lists one category's spending.
  const filter = page.getByLabel('Категория', { exact: true });
  await filter.selectOption({ label: 'Транспорт' });
  await expect(page.getByText('За выбранный период операций нет')).toBeVisible();
  await filter.selectOption({ label: 'Кафе и рестораны' });
  await expect(page.locator('.transaction')).toHaveCount(1);
  await expect(page.locator('.transaction')).toContainText('Кафе и рестораны');
});

test('a monthly budget shows what the month has spent', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Олег', lastName: 'Иванов' });
  await topUp(request, person, '3000');
  await payMerchant(request, person, '400');

  // Budgets are the Savings section's second page: reached from the goals by its link.
  await signIn(page, person, '/wallet/savings');
  await expect(page.getByRole('heading', { name: 'Копилка и бюджеты', level: 1 })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Копилки или бюджеты' });
  await sections.getByRole('link', { name: 'Бюджеты' }).click();
  await expect(page).toHaveURL(/\/wallet\/budgets$/);
  await expect(sections.getByRole('link', { name: 'Бюджеты' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('form', { name: 'Новая копилка' })).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Новый бюджет' });
  await form.getByLabel('Категория', { exact: true }).selectOption({ label: 'Все траты' });
  await form.getByLabel('Сумма на месяц').fill('1000');
  await form.getByRole('button', { name: 'Сохранить бюджет' }).click();
  const budget = page.getByTestId('budget');
  await expect(budget).toContainText('Все траты');
  await expect(budget.getByTestId('budget-spent')).toHaveText(nbsp('Потрачено 400,00 ₽ из 1 000,00 ₽'));
  await expect(budget.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
  await expectNoSeriousAxe(page);
  await shot(page, 'budget');
});

test('a savings goal rounds a QR payment up', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' });
  await topUp(request, person, '3000');

  await signIn(page, person, '/wallet/savings');
  const form = page.getByRole('form', { name: 'Новая копилка' });
  await form.getByLabel('Название', { exact: true }).fill('Отпуск');
  await form.getByLabel('Цель', { exact: true }).fill('5000');
  await form.getByRole('button', { name: 'Создать копилку' }).click();
  const goal = page.getByTestId('goal');
  await expect(goal).toContainText('Отпуск');
  await goal.getByLabel('Округление платежей').selectOption('10');
  await expect(goal.getByLabel('Округление платежей').locator('option:checked')).toHaveText(nbsp('До 10 ₽'));

  // A deposit through the PIN modal.
  await goal.getByRole('button', { name: 'Пополнить' }).click();
  await goal.getByLabel('Пополнение копилки').fill('100');
  await goal.getByRole('button', { name: 'Продолжить' }).click();
  const modal = page.getByRole('dialog');
  await page.keyboard.type('2468');
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Деньги отложены в копилку')).toBeVisible();
  await modal.getByRole('button', { name: 'Закрыть' }).first().click();
  await expect(goal.getByTestId('goal-saved')).toHaveText(nbsp('100,00 ₽ из 5 000,00 ₽'));

  // A QR payment of 123,45 ₽ rounds 6,55 ₽ into the goal.
  await payMerchant(request, person, '123.45');
  await page.reload();
  await expect(goal.getByTestId('goal-saved')).toHaveText(nbsp('106,55 ₽ из 5 000,00 ₽'));
  await goal.getByRole('button', { name: 'История' }).click();
  await expect(goal.getByRole('list', { name: 'История копилки «Отпуск»' })).toContainText('Округление');
  await expect(goal.getByRole('list', { name: 'История копилки «Отпуск»' })).toContainText(nbsp('+6,55 ₽'));
  // Money in on one day promises no date: the goal says when it will.
  await expect(goal).toContainText('Срок покажем, когда копилка пополнится в разные дни');
  await expectNoSeriousAxe(page);
  await shot(page, 'goal');
});

test('a weekly deposit is set on a goal with the PIN and listed', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Пётр', lastName: 'Орлов' });
  await topUp(request, person, '3000');

  await signIn(page, person, '/wallet/savings');
  const form = page.getByRole('form', { name: 'Новая копилка' });
  await form.getByLabel('Название', { exact: true }).fill('Велосипед');
  await form.getByLabel('Цель', { exact: true }).fill('20000');
  await form.getByRole('button', { name: 'Создать копилку' }).click();
  const goal = page.getByTestId('goal');
  const plan = goal.getByRole('region', { name: 'Пополнять регулярно' });
  await plan.getByRole('button', { name: 'Настроить' }).click();
  const planForm = plan.getByRole('form', { name: 'Пополнять регулярно' });
  await planForm.getByLabel('Сумма пополнения').fill('500');
  await planForm.getByLabel('Периодичность').selectOption('week');
  await expect(planForm.getByLabel('Первое пополнение (время московское)')).not.toHaveValue('');
  await expectNoSeriousAxe(page);
  await shot(page, 'goal-plan-form');
  await planForm.getByRole('button', { name: 'Продолжить' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal).toContainText(nbsp('Велосипед · каждую неделю'));
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Регулярное пополнение настроено')).toBeVisible();
  await modal.getByRole('button', { name: 'Готово' }).click();

  const current = plan.getByTestId('goal-plan');
  await expect(current).toContainText(nbsp('500,00 ₽ каждую неделю'));
  await expect(current).toContainText('Следующее пополнение:');
  await expectNoSeriousAxe(page);
  await shot(page, 'goal-plan');

  // Among the schedules: the goal's name, no phone.
  await page.goto('/wallet/schedules');
  const item = page.getByTestId('schedule');
  await expect(item).toContainText('в копилку «Велосипед»');
  await expect(item).toContainText('каждую неделю');
  await expect(item).not.toContainText('+7');
  await expect(item.getByTestId('schedule-status')).toContainText('Следующий перевод');

  // Stopped from the goal's card.
  await page.goto('/wallet/savings');
  await plan.getByRole('button', { name: 'Остановить' }).click();
  await expect(plan.getByRole('button', { name: 'Настроить' })).toBeVisible();
  await expect(plan.getByTestId('goal-plan')).toHaveCount(0);
});

test('a dinner is split among three friends from the history, and the list shows who has paid', async ({
  page,
  request,
}) => {
  const [host, ...friends] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
    registerPerson(request, { firstName: 'Олег', lastName: 'Сидоров' }),
    registerPerson(request, { firstName: 'Анна', lastName: 'Смирнова' }),
  ]);
  await topUp(request, host, '5000');
  await payMerchant(request, host, '3000');

  await signIn(page, host, '/history');
  // The row opens the operation's page, where 'Разделить' is.
  await page.locator('.transaction', { hasText: 'Три кита' }).first().click();
  await page
    .getByRole('link', { name: /^Разделить «/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/wallet\/request\?split=3000\.00$/);
  const form = page.getByRole('form', { name: 'Разделить счёт' });
  await expect(form.getByLabel('Сумма счёта')).toHaveValue('3000,00');
  await form.getByRole('button', { name: 'Добавить участника' }).click();
  for (const [index, friend] of friends.entries())
    await form.getByLabel(`Телефон участника ${index + 1}`).pressSequentially(friend.national);
  // 'Включая меня' is the default: four at the table, each friend asked a quarter.
  await expect(form.getByTestId('split-each')).toHaveText(
    nbsp('С каждого участника: 750,00 ₽. Ваша часть: 750,00 ₽.'),
  );
  await expectNoSeriousAxe(page);
  await shot(page, 'split');
  await form.getByRole('button', { name: 'Отправить запросы' }).click();
  await expect(form.getByRole('status')).toHaveText('Запросы отправлены 3 участникам');
  const outgoing = page.getByTestId('outgoing-requests');
  await expect(outgoing.getByRole('listitem')).toHaveCount(3);

  // Иван pays his share; the list says so.
  const ivan = friends[0]!;
  await topUp(request, ivan, '2000');
  await upgradeToSimplified(request, ivan);
  const headers = { Authorization: `Token ${ivan.token}` };
  const incoming = await request.get('/v2/wallet/request?direction=incoming', { headers });
  const share = ((await incoming.json()).results as { id: string; amount: string }[])[0]!;
  expect(share.amount).toBe('750.00');
  const paid = await request.post(`/v2/wallet/request/${share.id}/pay`, {
    data: { pin: PIN },
    headers: { ...headers, 'Idempotency-Key': randomUUID() },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  await page.reload();
  await expect(outgoing.getByTestId('outgoing-request-status').filter({ hasText: 'Оплачен' })).toHaveCount(1);
  await expect(outgoing.getByRole('listitem').filter({ hasText: 'Оплачен' })).toContainText('Иван П.');
});
