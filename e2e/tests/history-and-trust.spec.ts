/**
 * One row per operation and a trusted person who can leave (docs/decisions/history-and-trust.md), in
 * Russian and English, light and dark, on a phone and a desktop: a held transfer is one history row
 * whose status changes; its notice opens it; the row opens the operation's page with its actions (none
 * that move money once it failed); statistics list only what moved; the person whose trusted person
 * stepped down reads so in Settings; a transfer waiting for the trusted person is one row 'waiting for
 * approval', the trusted person approves it on Home and reads what they did, and the same row is done.
 * Screenshots go to /tmp/shots/trust-*.png.
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
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

const TEXTS = {
  ru: {
    held: 'Приостановлено',
    cancelled: 'Отменено',
    confirm: 'Подтвердить или отменить',
    operation: 'Операция',
    notifications: 'Уведомления',
    repeat: 'Повторить',
    support: 'Поддержка',
    returned: 'Деньги возвращены на счёт',
    step: 'Выйти из роли',
    left: /больше не подтверждает ваши операции: отказ от роли/,
    maria: 'Мария С.',
    olga: 'Ольга И.',
    topups: 'Пополнения',
    awaiting: 'Ждёт одобрения',
    complete: 'Выполнено',
    approve: 'Одобрить',
    pinDigit: 'Цифра 1 из 4 PIN-кода',
    approved: 'Вы одобрили операцию Мария С. на 2\u00a0000,00\u00a0₽: деньги отправлены.',
  },
  en: {
    held: 'On hold',
    cancelled: 'Cancelled',
    confirm: 'Confirm or cancel',
    operation: 'Operation',
    notifications: 'Notifications',
    repeat: 'Repeat',
    support: 'Support',
    returned: 'The money is back in your account',
    step: 'Step down',
    left: /no longer approves your operations: they stepped down/,
    // Names in Latin letters on English screens, as the bank card writes them (ICAO Doc 9303).
    maria: 'Mariia S.',
    olga: 'Olga I.',
    topups: 'Top-ups',
    awaiting: 'Awaiting approval',
    complete: 'Completed',
    approve: 'Approve',
    pinDigit: 'Digit 1 of 4 of the PIN',
    approved: /^You approved Mariia S\.’s operation of (₽\s?2,000\.00|2,000\.00\s?₽): the money is sent\.$/,
  },
} as const;

/** A screenshot to look at: the whole page for the history (its rows are below the statistics). */
async function shot(page: Page, name: string, fullPage = false) {
  await expect(page.locator('[aria-busy="true"], .skeleton, .area-state--loading')).toHaveCount(0);
  await page.screenshot({
    path: `/tmp/shots/trust-${name}-${page.viewportSize()?.width ?? 0}.png`,
    fullPage,
  });
}

const noAxeViolations = (page: Page) => expectNoAxeViolations(page, { serious: true });

async function payer(request: APIRequestContext, roubles: string) {
  const [person, payee] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await Promise.all([upgradeToSimplified(request, person), upgradeToSimplified(request, payee)]);
  await topUp(request, person, roubles);
  return { person, payee };
}

for (const language of ['ru', 'en'] as const) {
  const text = TEXTS[language];

  test(`${language}: a held transfer is one row whose status changes; its notice and row open the operation`, async ({
    page,
    request,
  }) => {
    // Three screens, each read by axe in both themes: longer than a click-through.
    test.setTimeout(150_000);
    await page.addInitScript((value) => localStorage.setItem('e-wallet-language', value), language);
    const { person, payee } = await payer(request, '20000');
    // From a session minutes old to a new recipient: held by the antifraud check.
    const held = await request.post('/v2/wallet/transfer', {
      headers: { ...auth(person), 'Idempotency-Key': randomUUID() },
      data: { phone: payee.phone, amount: '15000', currency_code: 'RUB', pin: PIN },
    });
    expect(held.status(), await held.text()).toBe(202);
    const holdId = (await held.json()).hold_id as string;

    await signIn(page, person, '/history');
    const rows = page.locator('.transaction');
    await expect(rows).toHaveCount(2);
    const row = rows.first();
    await expect(row).toContainText(text.held);
    // Amount, name, time, status: no chips and no select in the row.
    await expect(row.locator('button, select')).toHaveCount(0);
    // Only what moved is listed: the top-up, nothing at zero.
    const stats = page.locator('.stat-list__item');
    await expect(stats).toHaveCount(1);
    await expect(stats.first()).toContainText(text.topups);
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `history-held-${language}${scheme}`, true);
    });

    // The hold's notice opens the operation.
    await page.getByRole('button', { name: new RegExp(`^${text.notifications}`) }).click();
    await page.locator('.notification__link').first().click();
    await expect(page).toHaveURL(/\/history\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: text.operation, level: 1 })).toBeVisible();
    await expect(page.getByTestId('operation-status')).toHaveText(text.held);
    await expect(page.getByRole('link', { name: text.confirm })).toBeVisible();
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `operation-held-${language}${scheme}`);
    });

    // Cancelled: the same row, its status changed; the operation offers no money actions.
    const cancelled = await request.post(`/v2/wallet/holds/${holdId}/cancel`, { headers: auth(person) });
    expect(cancelled.ok(), await cancelled.text()).toBe(true);
    await page.reload();
    await expect(page.getByTestId('operation-status')).toHaveText(`${text.cancelled} · ${text.returned}`);
    await expect(page.getByRole('link', { name: text.repeat })).toHaveCount(0);
    await expect(page.locator('.operation').getByRole('link', { name: text.support })).toBeVisible();
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `operation-cancelled-${language}${scheme}`);
    });
    await page.goto('/history');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText(text.cancelled);
    await shot(page, `history-cancelled-${language}`, true);
  });

  test(`${language}: a transfer waiting for approval is one row; the trusted person approves, reads what they did, and the row is done`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    await page.addInitScript((value) => localStorage.setItem('e-wallet-language', value), language);
    const { person, payee } = await payer(request, '5000');
    const trusted = await registerPerson(request, { firstName: 'Ольга', lastName: 'Иванова' });
    await nameTrustedPerson(request, person, trusted, '1000');
    // Over the trusted person's threshold: it waits for their approval.
    const waiting = await request.post('/v2/wallet/transfer', {
      headers: { ...auth(person), 'Idempotency-Key': randomUUID() },
      data: { phone: payee.phone, amount: '2000', currency_code: 'RUB', pin: PIN },
    });
    expect(waiting.status(), await waiting.text()).toBe(202);
    expect((await waiting.json()).status).toBe('awaiting_approval');

    // The person's history: the top-up and one row for the transfer, waiting for approval.
    await signIn(page, person, '/history');
    const rows = page.locator('.transaction');
    await expect(rows).toHaveCount(2);
    await expect(rows.first().getByTestId('transaction-status')).toHaveText(text.awaiting);
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `history-awaiting-${language}${scheme}`, true);
    });

    // The trusted person approves on Home; the card gives way to what was done.
    await signIn(page, trusted, '/');
    const approvals = page.getByTestId('approvals');
    await expect(approvals).toContainText(text.maria);
    await approvals.getByRole('button', { name: text.approve }).click();
    const dialog = page.getByTestId('approval-confirm');
    await expect(dialog.getByLabel(text.pinDigit)).toBeFocused();
    await page.keyboard.type(PIN);
    await dialog.getByRole('button', { name: text.approve }).click();
    await expect(approvals.getByTestId('approval-card')).toHaveCount(0);
    await expect(approvals.getByTestId('approval-done')).toHaveText(text.approved);
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `approved-${language}${scheme}`);
    });

    // The same row, now done: still two rows, no status left to show; the operation says it is done.
    await signIn(page, person, '/history');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).not.toContainText(text.awaiting);
    await expect(rows.first().getByTestId('transaction-status')).toHaveCount(0);
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `history-approved-${language}${scheme}`, true);
    });
    await rows.first().click();
    await expect(page.getByTestId('operation-status')).toHaveText(text.complete);
  });

  test(`${language}: a trusted person steps down; the person who named them reads so in Settings`, async ({
    page,
    request,
  }) => {
    await page.addInitScript((value) => localStorage.setItem('e-wallet-language', value), language);
    const [person, trusted] = await Promise.all([
      registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
      registerPerson(request, { firstName: 'Ольга', lastName: 'Иванова' }),
    ]);
    await nameTrustedPerson(request, person, trusted, '1000');

    await signIn(page, trusted, '/settings');
    const panel = page.getByTestId('trusted-person');
    await expect(panel).toContainText(text.maria);
    await panel.getByRole('button', { name: `${text.step}: ${text.maria}` }).click();
    await expect(panel).not.toContainText(text.maria);

    await signIn(page, person, '/settings');
    const left = page.getByTestId('trusted-left');
    await expect(left).toContainText(text.left);
    await expect(left).toContainText(text.olga);
    await left.scrollIntoViewIfNeeded();
    await lightAndDark(page, async (scheme) => {
      await noAxeViolations(page);
      await shot(page, `settings-left-${language}${scheme}`);
    });
    // The notice says so too, and opens the trusted person's panel.
    await page.getByRole('button', { name: new RegExp(`^${text.notifications}`) }).click();
    await page.locator('.notification__link').first().click();
    await expect(page).toHaveURL(/\/settings#trusted-person$/);
  });
}
