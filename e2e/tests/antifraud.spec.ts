/**
 * Antifraud and the trusted person in the browser
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person), on a phone and a desktop: a large transfer
 * from a new device to a new recipient is held ('Операция приостановлена' with its reason) and the person
 * confirms it with a fresh SMS code and the PIN; a trusted person approves, from their own session, a
 * transfer waiting for them on Home; closing the wallet while a trusted person is in force is refused, saying
 * what to do. Screenshots go to
 * /tmp/shots/antifraud-*.png.
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import {
  auth,
  lightAndDark,
  nameTrustedPerson,
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
  await page.screenshot({ path: `/tmp/shots/antifraud-${name}-${width}.png` });
}

const noAxeViolations = (page: Page) => expectNoAxeViolations(page, { serious: true });

async function smsCode(request: APIRequestContext, phone: string, after: string | null): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      code = ((await answer.json()).results as { code: string }[]).find((sms) => sms.code !== '')?.code ?? '';
      return code !== '' && code !== after;
    })
    .toBe(true);
  return code;
}

async function lastCode(request: APIRequestContext, phone: string): Promise<string | null> {
  const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return ((await answer.json()).results as { code: string }[]).find((sms) => sms.code !== '')?.code ?? null;
}

/** Two people at the simplified level, the first with roubles. */
async function twoPeople(request: APIRequestContext, roubles: string) {
  const [payer, payee] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await Promise.all([upgradeToSimplified(request, payer), upgradeToSimplified(request, payee)]);
  await topUp(request, payer, roubles);
  return { payer, payee };
}

test('a large transfer from a new device is held, and the person confirms it with an SMS code and the PIN', async ({
  page,
  request,
}) => {
  const { payer, payee } = await twoPeople(request, '20000');
  await signIn(page, payer, '/wallet/save');
  await page.getByLabel('Телефон получателя').fill(payee.national);
  await expect(page.getByTestId('recipient-card')).toContainText('Иван П.');
  await page.getByLabel('Сумма', { exact: true }).fill('15000');
  await expect(page.getByRole('button', { name: 'Перевести' })).toBeEnabled();
  await page.getByRole('button', { name: 'Перевести' }).click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();

  await expect(modal.getByText('Операция приостановлена')).toBeVisible();
  await expect(modal.getByTestId('pay-held-reason')).toContainText('недавно подключённого устройства');
  await noAxeViolations(page);
  await shot(page, 'held');
  await modal.getByRole('link', { name: 'Открыть операцию' }).click();

  await expect(page.getByRole('heading', { name: 'Приостановленные операции', level: 1 })).toBeVisible();
  const card = page.getByTestId('hold-card').first();
  await expect(card).toContainText('Приостановлена');
  await expect(card).toContainText('Иван П.');
  await lightAndDark(page, async (scheme) => {
    await noAxeViolations(page);
    await shot(page, `holds${scheme}`);
  });
  await card.getByRole('button', { name: 'Подтвердить' }).click();

  const dialog = page.getByTestId('hold-confirm');
  const before = await lastCode(request, payer.phone);
  await dialog.getByRole('button', { name: 'Получить код' }).click();
  await expect(dialog.getByText(/^Код отправлен на \+7/)).toBeVisible();
  const code = await smsCode(request, payer.phone, before);
  await dialog.getByLabel('Цифра 1 из 4 кода').click();
  await page.keyboard.type(code);
  await dialog.getByLabel('Цифра 1 из 4 PIN-кода').click();
  await page.keyboard.type(PIN);
  await shot(page, 'confirm');
  await dialog.getByRole('button', { name: 'Подтвердить' }).click();

  await expect(card).toContainText('Выполнена');
  await expect.poll(() => rubBalance(request, payee)).toBe('15000.00');
  await expect.poll(() => rubBalance(request, payer)).toBe('5000.00');
});

test('a trusted person approves, from their own session, a transfer waiting for them on Home', async ({
  page,
  request,
}) => {
  // Two people registered, Settings and Home each checked by axe in both themes: over a minute on a busy machine.
  test.setTimeout(120_000);
  const { payer, payee } = await twoPeople(request, '5000');
  const trusted = await registerPerson(request, { firstName: 'Ольга', lastName: 'Иванова' });
  const named = await request.put('/v2/wallet/trusted-person', {
    headers: auth(payer),
    data: { phone: trusted.phone, threshold: '1000', new_payees: false },
  });
  expect(named.ok(), await named.text()).toBe(true);

  // The trusted person accepts in Settings.
  await signIn(page, trusted, '/settings');
  const panel = page.getByTestId('trusted-person');
  await expect(panel).toContainText('Мария С.');
  await panel.getByRole('button', { name: 'Принять' }).click();
  await expect(panel).toContainText('Действует');
  await panel.scrollIntoViewIfNeeded();
  await noAxeViolations(page);
  await shot(page, 'trusted-settings');

  const waiting = await request.post('/v2/wallet/transfer', {
    headers: { ...auth(payer), 'Idempotency-Key': randomUUID() },
    data: { phone: payee.phone, amount: '2000', currency_code: 'RUB', pin: PIN },
  });
  expect(waiting.status()).toBe(202);
  expect((await waiting.json()).status).toBe('awaiting_approval');

  await page.goto('/');
  const approvals = page.getByTestId('approvals');
  await expect(approvals).toContainText('Мария С.');
  await expect(approvals).toContainText('Иван П.');
  await lightAndDark(page, async (scheme) => {
    await noAxeViolations(page);
    await shot(page, `approval${scheme}`);
  });
  await approvals.getByRole('button', { name: 'Одобрить' }).click();
  const dialog = page.getByTestId('approval-confirm');
  await expect(dialog.getByLabel('Цифра 1 из 4 PIN-кода')).toBeFocused();
  await page.keyboard.type(PIN);
  await dialog.getByRole('button', { name: 'Одобрить' }).click();
  // The card leaves; what was done is said in its place.
  await expect(approvals.getByTestId('approval-card')).toHaveCount(0);
  await expect(approvals.getByTestId('approval-done')).toHaveText(
    'Вы одобрили операцию Мария С. на 2\u00a0000,00\u00a0₽: деньги отправлены.',
  );
  await expect.poll(() => rubBalance(request, payee)).toBe('2000.00');
});

test('closing the wallet while a trusted person is in force is refused, saying what to do', async ({
  page,
  request,
}) => {
  const { payer } = await twoPeople(request, '5000');
  const trusted = await registerPerson(request, { firstName: 'Ольга', lastName: 'Иванова' });
  await nameTrustedPerson(request, payer, trusted, '1000');

  await signIn(page, payer, '/settings');
  await page.getByTestId('close-wallet').getByRole('button', { name: 'Закрыть кошелёк' }).click();
  const dialog = page.getByRole('dialog', { name: 'Закрыть кошелёк' });
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText('У кошелька есть доверенное лицо');
  await expect(refusal).toContainText('выведите остаток на карту');
  // Nothing to fill in while it is refused: no card, no code, and closing cannot be pressed.
  await expect(dialog.getByLabel('Карта для остатка')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Закрыть навсегда' })).toBeDisabled();
  await lightAndDark(page, async (scheme) => {
    await noAxeViolations(page);
    await shot(page, `close-trusted${scheme}`);
  });
  expect(await rubBalance(request, payer)).toBe('5000.00');
});
