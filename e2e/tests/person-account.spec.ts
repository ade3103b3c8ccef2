/**
 * A person's account (docs/decisions/account.md#a-persons-account), on a phone and a desktop: sign-out from
 * Settings, sign-in with a discoverable passkey in real Chromium (a virtual authenticator through
 * the DevTools protocol), the operator's licence on the landing and in the profile, one's own data,
 * and dark mode on every main screen with no serious accessibility issue (axe) in either theme.
 * WebAuthn needs a domain, so the passkey test has a server of its own at http://localhost:<port>.
 */
import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { passkeyTest, virtualAuthenticator } from './passkey-server.ts';
import {
  colorScheme,
  GOOD_CARD,
  openProfilePanel,
  PIN,
  registerPerson,
  signIn,
  termsVersion,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const found = await axeViolations(page, { serious: true, tags: ['wcag2a', 'wcag2aa', 'wcag21aa'] });
  return found.map((violation) => `${where}: ${violation}`);
}

/** The page's background as the browser paints it: dark when every channel is low. */
async function pageIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    // The body's own background, or the page's under a transparent body.
    const painted = [document.body, document.documentElement]
      .map((element) => getComputedStyle(element).backgroundColor)
      .find((color) => color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent');
    const [r = 255, g = 255, b = 255] = (painted?.match(/\d+/g) ?? []).map(Number);
    return r < 60 && g < 60 && b < 60;
  });
}

test('sign-out stands on Settings and leads to the landing, which names the operator and its licence', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request, { firstName: 'Олег', lastName: 'Выходов' });
  await signIn(page, person, '/settings');
  await expect(page.getByRole('heading', { name: 'Настройки', level: 1 })).toBeVisible();
  await page.getByTestId('settings-sign-out').click();
  await expect(page).toHaveURL(/\/auth$/);
  const operator = page.getByTestId('operator-facts');
  await expect(operator).toContainText('ООО «Е-Кошелёк»');
  await expect(operator).toContainText('Лицензия Банка России');
  await expect(operator.getByRole('link', { name: /Запись в реестре Банка России/ })).toHaveAttribute(
    'href',
    /^https:\/\//,
  );
  // The token is gone: the signed-in area sends the person back to the landing.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the profile panel names the operator and signs out', async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Инна', lastName: 'Профилева' });
  await signIn(page, person, '/');
  await openProfilePanel(page);
  const panel = page.locator('#profile-panel');
  await expect(panel.getByTestId('operator-facts')).toContainText('Лицензия Банка России');
  await panel.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test("one's own data downloads as JSON and PDF from Settings", async ({ page, request }) => {
  const person = await registerPerson(request, { firstName: 'Дана', lastName: 'Выгрузова' });
  await topUp(request, person, '250.00');
  await signIn(page, person, '/settings');
  const panel = page.getByTestId('my-data');
  await expect(panel.getByRole('heading', { name: 'Мои данные' })).toBeVisible();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Скачать JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^e-wallet-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await streamText(await json.createReadStream()));
  expect(data.profile.phone).toBe(person.phone);
  expect(data.operations[0].amount).toBe('250.00');
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Скачать PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await streamText(await pdf.createReadStream())).startsWith('%PDF-')).toBe(true);
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

test.describe('dark mode', () => {
  // Axe reads every screen twice over: slow on a busy machine.
  test.describe.configure({ timeout: 240_000 });

  test('follows the system on the landing, registration and sign-in', async ({ page }) => {
    await colorScheme(page, 'dark');
    const violations: string[] = [];
    for (const path of ['/auth', '/auth/register', '/auth/login']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await pageIsDark(page), path).toBe(true);
      violations.push(...(await seriousViolations(page, `dark ${path}`)));
    }
    expect(violations).toEqual([]);
  });

  test('follows the system on every main screen of the signed-in app', async ({
    page,
    request,
  }, testInfo) => {
    await colorScheme(page, 'dark');
    const person = await registerPerson(request, { firstName: 'Ночь', lastName: 'Тёмная' });
    await topUp(request, person, '300.00');
    await signIn(page, person, '/');
    const violations: string[] = [];
    for (const path of [
      '/',
      '/history',
      '/wallet',
      '/wallet/save',
      '/wallet/withdrawal',
      '/payment',
      '/settings',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.locator('.skeleton')).toHaveCount(0);
      expect(await pageIsDark(page), path).toBe(true);
      violations.push(...(await seriousViolations(page, `dark ${path}`)));
      // The README's dark screens (SHOTS_DIR), beside the light ones the other specs save.
      if (process.env.SHOTS_DIR && ['/', '/history', '/settings'].includes(path)) {
        const name = path === '/' ? 'home' : path.slice(1);
        const width = testInfo.project.name === 'phone' ? 390 : 1440;
        await page.screenshot({ path: `${process.env.SHOTS_DIR}/dark-${name}-${width}.png` });
      }
    }
    expect(violations).toEqual([]);
  });

  test("the public receipt page follows the reader's system", async ({ page, request }) => {
    const person = await registerPerson(request, { firstName: 'Лина', lastName: 'Проверкина' });
    await topUp(request, person, '120.00');
    const headers = { Authorization: `Token ${person.token}` };
    const history = await (await request.get('/v2/wallet/transaction', { headers })).json();
    const receipt = await (
      await request.get(`/v2/wallet/transaction/${history.results[0].id}/receipt`, { headers })
    ).json();
    const path = new URL(receipt.verify_url).pathname;
    for (const scheme of ['dark', 'light'] as const) {
      await colorScheme(page, scheme);
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Квитанция подлинная' })).toBeVisible();
      expect(await pageIsDark(page), scheme).toBe(scheme === 'dark');
      expect(await seriousViolations(page, `${scheme} verify`)).toEqual([]);
    }
  });

  test('Settings chooses light, dark or the system, kept on the device', async ({ page, request }) => {
    await colorScheme(page, 'dark');
    const person = await registerPerson(request, { firstName: 'Свет', lastName: 'Выборова' });
    await signIn(page, person, '/settings');
    await expect(page.getByRole('heading', { name: 'Настройки', level: 1 })).toBeVisible();
    expect(await pageIsDark(page)).toBe(true);
    // The person's choice stands over the system's.
    await page.getByRole('radio', { name: 'Светлая' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await pageIsDark(page)).toBe(false);
    expect(await seriousViolations(page, 'light /settings')).toEqual([]);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Светлая' })).toBeChecked();
    expect(await pageIsDark(page)).toBe(false);
    await colorScheme(page, 'light');
    await page.getByRole('radio', { name: 'Тёмная' }).check();
    expect(await pageIsDark(page)).toBe(true);
    await page.getByRole('radio', { name: 'Системная' }).check();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme');
    expect(await pageIsDark(page)).toBe(false);
  });
});

// The server of its own starts inside the test's time.
passkeyTest.describe.configure({ timeout: 180_000 });
passkeyTest('a person with a passkey signs in with it, no SMS', async ({ page, request }) => {
  const authenticator = await virtualAuthenticator(page);
  const person = await registerPerson(request, { firstName: 'Вера', lastName: 'Ключева' });
  await signIn(page, person, '/settings');
  const passkeys = page.getByTestId('passkeys');
  await passkeys.getByRole('button', { name: 'Добавить ключ доступа' }).click();
  // Adding a passkey takes the PIN (docs/decisions/security-rules.md#hardening-third-round).
  await passkeys.getByTestId('pin-step').getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
  await page.keyboard.type(PIN);
  await passkeys.getByRole('button', { name: 'Продолжить' }).click();
  await expect(passkeys.getByRole('status')).toHaveText('Ключ доступа добавлен');
  // A discoverable credential: the device keeps the person with it.
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await page.getByTestId('settings-sign-out').click();
  await expect(page).toHaveURL(/\/auth$/);
  const smsBefore = await (
    await request.get(`/sandbox/sms?phone=${encodeURIComponent(person.phone)}`)
  ).json();
  await page.getByRole('link', { name: 'Войти' }).click();
  await expect(page.getByRole('heading', { name: 'Вход', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Войти с ключом доступа' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('greeting')).toContainText('Вера');
  // No code was sent: the passkey alone signed in.
  const smsAfter = await (await request.get(`/sandbox/sms?phone=${encodeURIComponent(person.phone)}`)).json();
  expect(smsAfter.results.filter((sms: { code: string }) => sms.code !== '')).toHaveLength(
    smsBefore.results.filter((sms: { code: string }) => sms.code !== '').length,
  );
});

test('closing a wallet: the balance to a card, signed out, the phone free for a new wallet', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const person = await registerPerson(request, { firstName: 'Зоя', lastName: 'Закрытова' });
  await upgradeToSimplified(request, person);
  await topUp(request, person, '400.00');
  await signIn(page, person, '/settings');
  const panel = page.getByTestId('close-wallet');
  await panel.getByRole('button', { name: 'Закрыть кошелёк' }).click();
  const dialog = page.getByRole('dialog', { name: 'Закрыть кошелёк' });
  await expect(dialog.getByText('на карту')).toBeVisible();
  await expect(dialog.getByText(/400,00/)).toBeVisible();
  await dialog.getByLabel('Карта для остатка').fill(GOOD_CARD);
  // The same step as every other one beyond the PIN: a fresh code to one's own phone, then code and PIN.
  await dialog.getByRole('button', { name: 'Получить код' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Код отправлен' })).toBeVisible();
  const outbox = await (await request.get(`/sandbox/sms?phone=${encodeURIComponent(person.phone)}`)).json();
  const code = outbox.results.find((sms: { code: string }) => sms.code !== '').code as string;
  await dialog.getByRole('textbox', { name: 'Цифра 1 из 4 кода' }).click();
  await page.keyboard.type(code);
  await dialog.getByRole('textbox', { name: 'Цифра 1 из 4 PIN-кода' }).click();
  await page.keyboard.type(PIN);
  await dialog.getByRole('button', { name: 'Закрыть навсегда' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  // The old token is gone.
  const info = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(info.status()).toBe(401);
  // The phone registers a new wallet.
  const again = await request.post('/v2/wallet/auth/register', {
    data: {
      first_name: 'Зоя',
      last_name: 'Новая',
      phone: person.phone,
      email: `new.${person.email}`,
      terms_version: await termsVersion(request),
    },
  });
  expect(again.ok(), await again.text()).toBe(true);
});
