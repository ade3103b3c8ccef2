/**
 * Identification in real Chromium against the real server, on a phone and a desktop: the section
 * on Settings and in the profile panel through every state a person meets. One person goes from
 * anonymous to simplified on the sandbox KYC page (pending with a refresh button on the way);
 * another is rejected, sees the reason and the retry button, and retries until approved.
 * With SHOTS_DIR set, the states are also saved as screenshots.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openProfilePanel, registerPerson, signIn } from './wallet-fixtures.ts';

const settingsSection = (page: Page) => page.getByTestId('settings-identification');
const panelSection = (page: Page) => page.locator('#profile-panel').getByTestId('identification');

/** The profile panel's section, on Home: Settings shows its own and no panel; a phone opens the panel. */
async function panelOnHome(page: Page): Promise<Locator> {
  await page.goto('/');
  await openProfilePanel(page);
  return panelSection(page);
}

async function shot(page: Page, name: string, target?: Locator) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  const project = test.info().project.name;
  const path = `${dir}/settings-${name}-${project}.png`;
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

/** Fills the sandbox KYC page with a valid test INN and approves, or rejects with a reason. */
async function decideOnSandbox(page: Page, decision: { approve: true } | { reject: string }) {
  await expect(page).toHaveURL(/\/sandbox\/kyc\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Проверка личности' })).toBeVisible();
  if ('approve' in decision) {
    await page.getByLabel('Документ', { exact: true }).selectOption('inn');
    await page.getByLabel('Номер документа').fill('500100732259');
    await page.getByLabel('Фамилия, имя и отчество').fill('Соколова Мария Ивановна');
    await page.getByLabel('Дата рождения').fill('1990-05-17');
    await page.getByRole('button', { name: 'Подтвердить' }).click();
  } else {
    await page.getByLabel(/Причина отказа/).fill(decision.reject);
    await page.getByRole('button', { name: 'Отклонить' }).click();
  }
  // The page answers with a redirect to the app's settings.
  await expect(page).toHaveURL(/\/settings$/);
}

async function expectAnonymousWithUpgrade(section: Locator) {
  await expect(section.getByTestId('identification-level')).toHaveText('Анонимный');
  await expect(section.getByTestId('limit-balance')).toHaveText('15\u00a0000,00\u00a0₽');
  await expect(section.getByTestId('limit-monthly')).toHaveText(
    'осталось 40\u00a0000,00\u00a0₽ из 40\u00a0000,00\u00a0₽',
  );
  await expect(section.getByTestId('identification-status')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Повысить уровень' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Обновить статус' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Пройти проверку снова' })).toHaveCount(0);
}

async function expectSimplifiedAfterApproval(section: Locator) {
  await expect(section.getByTestId('identification-level')).toHaveText('Упрощённый');
  await expect(section.getByTestId('identification-status')).toContainText('Проверка пройдена');
  await expect(section.getByTestId('limit-balance')).toHaveText('60\u00a0000,00\u00a0₽');
  await expect(section.getByTestId('limit-monthly')).toHaveText(
    'осталось 200\u00a0000,00\u00a0₽ из 200\u00a0000,00\u00a0₽',
  );
  // The next level (full) is still open: the upgrade is offered again; nothing to refresh.
  await expect(section.getByRole('button', { name: 'Повысить уровень' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Обновить статус' })).toHaveCount(0);
  await expect(section.getByText(/станут доступны после идентификации/)).toHaveCount(0);
}

test('anonymous to simplified on the sandbox page: upgrade, pending with refresh, approved', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Настройки' })).toBeVisible();
  await expectAnonymousWithUpgrade(settingsSection(page));
  await expect(settingsSection(page).getByText(/станут доступны после идентификации/)).toBeVisible();
  // Settings does not repeat the section in a side panel.
  await expect(page.locator('#profile-panel')).toHaveCount(0);
  await shot(page, 'anonymous');
  await expectAnonymousWithUpgrade(await panelOnHome(page));
  await shot(page, 'panel-anonymous', page.locator('#profile-panel'));
  await page.goto('/settings');

  // Upgrade: the browser leaves for verification_url. Coming back before deciding: pending.
  await settingsSection(page).getByRole('button', { name: 'Повысить уровень' }).click();
  await expect(page).toHaveURL(/\/sandbox\/kyc\/[0-9a-f-]{36}$/);
  const kycUrl = page.url();
  await page.goto('/settings');
  const expectPending = async (section: Locator) => {
    await expect(section.getByTestId('identification-status')).toContainText('Проверка начата');
    await expect(section.getByTestId('identification-status')).toContainText(
      'Запрошенный уровень: Упрощённый',
    );
    await expect(section.getByRole('button', { name: 'Обновить статус' })).toBeVisible();
    await expect(section.getByRole('button', { name: 'Повысить уровень' })).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Пройти проверку снова' })).toHaveCount(0);
  };
  await expectPending(settingsSection(page));
  await expectPending(await panelOnHome(page));
  await shot(page, 'panel-pending', page.locator('#profile-panel'));

  // Refresh re-checks with the server (POST status) and reloads the page.
  const statusCall = page.waitForResponse(
    (response) =>
      response.url().endsWith('/v2/wallet/identification-level/status') &&
      response.request().method() === 'POST',
  );
  const reloaded = page.waitForEvent('load');
  await panelSection(page).getByRole('button', { name: 'Обновить статус' }).click();
  expect((await statusCall).status()).toBe(200);
  await reloaded;
  await page.goto('/settings');
  await expect(settingsSection(page).getByTestId('identification-status')).toContainText('Проверка начата');

  await page.goto(kycUrl);
  await decideOnSandbox(page, { approve: true });
  await expectSimplifiedAfterApproval(settingsSection(page));
  await shot(page, 'simplified');
  await expectSimplifiedAfterApproval(await panelOnHome(page));
  await shot(page, 'panel-simplified', page.locator('#profile-panel'));
  await page.goto('/settings');
  await expect(settingsSection(page).getByRole('button', { name: 'Повысить уровень' })).toBeVisible();

  // A second start while one is under way is refused, and the refusal is shown.
  const started = await request.post('/v2/wallet/identification-level/upgrade', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(started.ok()).toBe(true);
  await settingsSection(page).getByRole('button', { name: 'Повысить уровень' }).click();
  await expect(settingsSection(page).getByRole('alert')).toHaveText('Проверка уже идёт. Обновите статус');
  await expect(settingsSection(page).getByRole('button', { name: 'Обновить статус' })).toBeVisible();
  await expect(settingsSection(page).getByTestId('identification-status')).toContainText(
    'Запрошенный уровень: Полный',
  );
});

test('a rejected verification shows its reason and the retry button; the retry is approved', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request, { firstName: 'Олег', lastName: 'Петров' });
  await signIn(page, person, '/');
  await expectAnonymousWithUpgrade(await panelOnHome(page));

  // Started from the profile panel this time.
  await panelSection(page).getByRole('button', { name: 'Повысить уровень' }).click();
  await decideOnSandbox(page, { reject: 'Фото документа нечитаемо' });

  const expectRejected = async (section: Locator) => {
    await expect(section.getByTestId('identification-level')).toHaveText('Анонимный');
    await expect(section.getByTestId('identification-status')).toContainText('Проверка не пройдена');
    await expect(section.getByTestId('identification-reason')).toHaveText(
      'Причина: Фото документа нечитаемо',
    );
    await expect(section.getByRole('button', { name: 'Пройти проверку снова' })).toBeVisible();
    await expect(section.getByRole('button', { name: 'Обновить статус' })).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Повысить уровень' })).toHaveCount(0);
  };
  await expectRejected(settingsSection(page));
  await shot(page, 'rejected');
  await expectRejected(await panelOnHome(page));
  await shot(page, 'panel-rejected', page.locator('#profile-panel'));

  await panelSection(page).getByRole('button', { name: 'Пройти проверку снова' }).click();
  await decideOnSandbox(page, { approve: true });
  await expectSimplifiedAfterApproval(settingsSection(page));
  const panel = await panelOnHome(page);
  await expectSimplifiedAfterApproval(panel);
  await expect(panel.getByTestId('identification-reason')).toHaveCount(0);
});
