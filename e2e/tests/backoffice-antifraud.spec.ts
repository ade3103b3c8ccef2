/**
 * The back office's antifraud pages in real Chromium at 390 and 1440 px
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): support reads a held transfer's signs in
 * words and releases it, or refuses another, each with a reason (the money arrives or comes back; the audit
 * tells it); compliance lists a phone under four eyes, the person's transfer to it is refused while it is
 * listed and goes through once it is removed (again under four eyes). Both pages pass axe in the light and
 * the dark theme.
 */
import { randomUUID } from 'node:crypto';
import { formatPhone } from '@e-wallet/contract/phone';
import { type APIRequestContext, expect } from '@playwright/test';
import {
  browserBeside,
  createOperator,
  expectAccessible,
  identify,
  type OpsServer,
  opsToken,
  shot,
  signInOperator,
  test,
} from './backoffice-helpers.ts';
import {
  colorScheme,
  lightAndDark,
  type Person,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
} from './wallet-fixtures.ts';

// Each test starts its own server and runs the command line beside it: slower than the shared one's.
test.describe.configure({ timeout: 300_000 });

const transfer = (request: APIRequestContext, from: Person, to: Person, amount: string) =>
  request.post('/v2/wallet/transfer', {
    headers: { Authorization: `Token ${from.token}`, 'Idempotency-Key': randomUUID() },
    data: { phone: to.phone, amount, currency_code: 'RUB', pin: PIN },
  });

type Name = { firstName: string; lastName: string };

/** A payer with roubles and a payee, both identified by a compliance operator through the API. */
async function twoPeople(
  request: APIRequestContext,
  server: OpsServer,
  roubles: string,
  names: [Name, Name],
): Promise<[Person, Person]> {
  const token = await opsToken(request, server, await createOperator(server, 'compliance'));
  const [payer, payee] = await Promise.all(names.map((name) => registerPerson(request, name)));
  for (const person of [payer!, payee!]) await identify(request, server, token, person);
  await topUp(request, payer!, roubles);
  return [payer!, payee!];
}

test('support proposes a held transfer’s release and compliance makes it; support refuses another', async ({
  browser,
  page,
  request,
  ownServer,
}) => {
  const [payer, payee] = await twoPeople(request, ownServer, '40000', [
    { firstName: 'Мария', lastName: 'Соколова' },
    { firstName: 'Иван', lastName: 'Петров' },
  ]);
  // A fresh session's large transfers to a new payee: both held, the money out of reach meanwhile.
  for (const amount of ['15000', '16000']) {
    const held = await transfer(request, payer, payee, amount);
    expect(held.status(), await held.text()).toBe(202);
  }
  expect(await rubBalance(request, payer)).toBe('9000.00');

  const support = await createOperator(ownServer, 'support');
  await signInOperator(page, ownServer, support);
  await page.getByRole('link', { name: 'Приостановленные' }).click();
  await expect(page.getByRole('heading', { name: 'Приостановленные операции', level: 1 })).toBeFocused();
  const first = page.getByRole('article', { name: /^15\s000,00\s₽ · Соколова Мария$/ });
  const second = page.getByRole('article', { name: /^16\s000,00\s₽ · Соколова Мария$/ });
  // What the operator says on the call: whose money, to whom, why it waits; words, never codes.
  await expect(first).toContainText(formatPhone(payer.phone));
  await expect(first).toContainText('Иван П.');
  await expect(first).toContainText('новое устройство и новый получатель');
  await expect(first).toContainText('Ждёт подтверждения клиента');
  await expect(first).not.toContainText('new_session');
  await expect(first.getByRole('link', { name: 'Соколова Мария' })).toBeVisible();
  await lightAndDark(page, async (scheme) => {
    await expectAccessible(page);
    await shot(page, `holds${scheme}`);
  });

  // A reason is required; with it, from the amount floor up, the release is only proposed: a second
  // operator with the compliance role makes it (docs/decisions/recovery-and-four-eyes.md).
  await expect(first).toContainText('Проводят двое');
  await first.getByRole('button', { name: 'Провести' }).click();
  await expect(first.getByRole('alert')).toContainText('Почему проводим');
  await first.getByLabel('Почему проводим').fill('Позвонили клиенту: перевод его, мошенников нет');
  await first.getByRole('button', { name: 'Провести' }).click();
  await expect(first).toContainText(`Провести предложил${support.email}`);
  await expect(first.getByRole('button', { name: 'Провести' })).toHaveCount(0);
  expect(await rubBalance(request, payee)).toBe('0.00');
  const compliance = await createOperator(ownServer, 'compliance');
  const other = await browserBeside(browser, page);
  await signInOperator(other, ownServer, compliance);
  await other.getByRole('link', { name: 'Приостановленные' }).click();
  const proposed = other.getByRole('article', { name: /^15\s000,00\s₽ · Соколова Мария$/ });
  await proposed.getByLabel('Почему проводим').fill('Проверил звонок коллеги');
  await proposed.getByRole('button', { name: 'Провести' }).click();
  await expect(proposed).toHaveCount(0);
  await expect.poll(() => rubBalance(request, payee)).toBe('15000.00');
  await other.context().close();
  await page.reload();

  // The other is refused: the money comes back to the person.
  await second.getByLabel('Почему отклоняем').fill('Клиента торопили по телефону, он отказался');
  await second.getByRole('button', { name: 'Отклонить и вернуть деньги' }).click();
  await expect(page.getByText('Операций нет')).toBeVisible();
  await expect.poll(() => rubBalance(request, payer)).toBe('25000.00');
  expect(await rubBalance(request, payee)).toBe('15000.00');

  // 'Все' keeps both with their outcome; the audit names the operator, the person and the reason.
  await page.getByRole('link', { name: 'Все' }).click();
  await expect(page.getByRole('article', { name: /^15\s000,00/ })).toContainText('Проведена');
  await expect(page.getByRole('article', { name: /^16\s000,00/ })).toContainText('Отклонена оператором');
  await page.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(
    page.getByText(`${support.email} предложил провести приостановленную операцию: Соколова Мария`),
  ).toBeVisible();
  await expect(
    page.getByText(`${compliance.email} провёл приостановленную операцию: Соколова Мария`),
  ).toBeVisible();
  await expect(
    page.getByText(`${support.email} отклонил приостановленную операцию: Соколова Мария`),
  ).toBeVisible();
  await expect(page.getByText('Причина: Клиента торопили по телефону, он отказался')).toBeVisible();
});

test('compliance lists a phone under four eyes: its transfers are refused until a removal, also four-eyed', async ({
  browser,
  page,
  request,
  ownServer,
}) => {
  const [payer, mule] = await twoPeople(request, ownServer, '1000', [
    { firstName: 'Олег', lastName: 'Крылов' },
    { firstName: 'Глеб', lastName: 'Жуков' },
  ]);
  const proposer = await createOperator(ownServer, 'compliance');
  const checker = await createOperator(ownServer, 'compliance');
  await signInOperator(page, ownServer, proposer);
  await page.getByRole('link', { name: 'Список мошенников' }).click();
  await expect(page.getByText('Записей нет')).toBeVisible();

  // The number as an operator copies it from a complaint: spaces, brackets and hyphens are fine.
  const proposal = page.getByRole('form', { name: 'Добавить получателя' });
  await proposal.getByLabel('Что').selectOption({ label: 'Телефон' });
  const written = `+7 (${mule.national.slice(0, 3)}) ${mule.national.slice(3, 6)}-${mule.national.slice(6, 8)}-${mule.national.slice(8)}`;
  await proposal.getByLabel('Номер', { exact: true }).fill(written);
  await proposal
    .getByLabel('Причина', { exact: true })
    .fill('Жалобы трёх клиентов: представлялся сотрудником банка');
  await proposal.getByRole('button', { name: 'Предложить' }).click();
  await expect(proposal.getByRole('status')).toHaveText('Предложено: ждёт подтверждения другого оператора');
  const entry = page.getByRole('article', { name: `Телефон: ${formatPhone(mule.phone)}` });
  await expect(entry).toContainText('Ждёт подтверждения');
  await expect(entry).toContainText(proposer.email);
  // The same number twice is refused, and the form keeps what was typed.
  await proposal.getByLabel('Номер', { exact: true }).fill(written);
  await proposal.getByLabel('Причина', { exact: true }).fill('Ещё одна жалоба');
  await proposal.getByRole('button', { name: 'Предложить' }).click();
  await expect(proposal.getByRole('alert')).toHaveText('Этот получатель уже в списке');
  await expect(proposal.getByLabel('Номер', { exact: true })).toHaveValue(written);
  // Four eyes: the proposer cannot confirm their own entry, and until confirmed it lists no one.
  await expect(entry.getByRole('button', { name: 'Подтвердить' })).toHaveCount(0);
  const early = await transfer(request, payer, mule, '100');
  expect(early.status(), await early.text()).toBe(200);
  await expectAccessible(page);

  // The second operator confirms in their own browser; now the person's transfer is refused.
  const other = await browserBeside(browser, page);
  await signInOperator(other, ownServer, checker);
  await other.getByRole('link', { name: 'Список мошенников' }).click();
  const theirs = other.getByRole('article', { name: `Телефон: ${formatPhone(mule.phone)}` });
  await theirs.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(theirs).toContainText('Действует');
  await expect(theirs).toContainText(`Подтвердил${checker.email}`);
  await shot(other, 'fraud-list');
  await colorScheme(other, 'dark');
  await expectAccessible(other);
  await shot(other, 'fraud-list-dark');
  await colorScheme(other, 'light');
  await expectAccessible(other);

  // The person, in the app: the transfer is refused with what happened and what to do.
  const app = await browserBeside(browser, page);
  await signIn(app, payer, '/wallet/save');
  await app.getByLabel('Телефон получателя').fill(mule.national);
  await expect(app.getByTestId('recipient-card')).toContainText('Глеб Ж.');
  await app.getByLabel('Сумма', { exact: true }).fill('200');
  await app.getByRole('button', { name: 'Перевести' }).click();
  const modal = app.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await app.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByTestId('pay-failed-message')).toContainText('базе случаев мошенничества');
  expect(await rubBalance(request, payer)).toBe('900.00');
  await app.context().close();

  // A removal is proposed by one operator and done by another; until then the phone stays listed.
  await theirs.getByLabel('Почему удаляем').fill('Номер сменил владельца: проверено');
  await theirs.getByRole('button', { name: 'Предложить удалить' }).click();
  await expect(theirs).toContainText('Предложено удалить: Номер сменил владельца: проверено');
  await expect(theirs).toContainText(`Удалить предложил${checker.email}`);
  await expect(theirs.getByRole('button', { name: 'Подтвердить удаление' })).toHaveCount(0);
  expect(((await (await transfer(request, payer, mule, '200')).json()) as { code: string }).code).toBe(
    'RECIPIENT_FRAUD_LISTED',
  );
  await page.reload();
  await entry.getByLabel('Почему удаляем').fill('Согласен: владелец другой');
  await entry.getByRole('button', { name: 'Подтвердить удаление' }).click();
  await expect(page.getByText('Записей нет')).toBeVisible();
  const after = await transfer(request, payer, mule, '200');
  expect(after.status(), await after.text()).toBe(200);
  await expect.poll(() => rubBalance(request, mule)).toBe('300.00');

  // The audit tells the four steps by their operators.
  await other.getByRole('link', { name: 'Журнал действий' }).click();
  await expect(other.getByText(`${proposer.email} предложил запись в список мошенников`)).toBeVisible();
  await expect(other.getByText(`${checker.email} подтвердил запись в списке мошенников`)).toBeVisible();
  await expect(
    other.getByText(`${checker.email} предложил удалить запись из списка мошенников`),
  ).toBeVisible();
  await expect(other.getByText(`${proposer.email} удалил запись из списка мошенников`)).toBeVisible();
  await other.context().close();
});
