/**
 * The Settings route in real Chromium against the real server, on a phone and a desktop: profile
 * facts, switching the language to English and back (the person's name then in Latin letters),
 * signing out another session and every other device (their tokens then answer 401 INVALID_TOKEN),
 * and changing the PIN with the old one (the new PIN is then the one the server accepts). With SHOTS_DIR set, the page is saved as screenshots.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { type Person, PIN, registerPerson, signIn } from './wallet-fixtures.ts';

const auth = (token: string) => ({ Authorization: `Token ${token}` });

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/settings-${name}-${test.info().project.name}.png`, fullPage: true });
}

/** Signs the person in once more through the API (SMS code from the sandbox outbox): a new session. */
async function loginAgain(request: APIRequestContext, person: Person, userAgent: string): Promise<string> {
  let token = '';
  // A new code may be sent only 60 s after the previous one; keep asking until the server allows it.
  await expect
    .poll(
      async () => {
        const sent = await request.post('/v2/wallet/auth/send_code', { data: { phone: person.phone } });
        return sent.status();
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe(200);
  const sms = await request.get(`/sandbox/sms?phone=${encodeURIComponent(person.phone)}`);
  const code = (await sms.json()).results[0].code as string;
  const login = await request.post('/v2/wallet/auth/login', {
    data: { phone: person.phone, confirm_code: code },
    headers: { 'User-Agent': userAgent },
  });
  expect(login.ok(), await login.text()).toBe(true);
  token = (await login.json()).auth_token;
  return token;
}

async function answerFor(request: APIRequestContext, token: string) {
  const answer = await request.get('/v2/wallet/auth/info', { headers: auth(token) });
  return { status: answer.status(), code: ((await answer.json()) as { code?: string }).code ?? null };
}

test('profile facts, and the language switches to English and back, remembered across reloads', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request, { firstName: 'Юлия', lastName: 'Щербакова' });
  await signIn(page, person, '/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Настройки' })).toBeVisible();
  await expect(page.getByTestId('settings-profile')).toContainText('Юлия Щербакова');
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Юлия!');
  await expect(page.getByTestId('settings-email')).toHaveText(person.email);
  await expect(page.getByTestId('settings-phone')).toHaveText(
    // No-break spaces and hyphens: the phone never breaks across lines.
    `+7\u00a0${person.national.slice(0, 3)}\u00a0${person.national.slice(3, 6)}\u2011${person.national.slice(6, 8)}\u2011${person.national.slice(8)}`,
  );
  await expect(page.getByTestId('settings-registered')).toHaveText(/^\d{1,2} [а-я]+ \d{4} г\.$/);
  await expect(page.getByRole('radio', { name: 'Русский' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

  await expectNoAxeViolations(page, { serious: true });

  await page.getByRole('radio', { name: 'English' }).check();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await expect(page.getByTestId('settings-identification').getByTestId('identification-level')).toHaveText(
    'Anonymous',
  );
  await expect(page.getByRole('button', { name: 'Change PIN' })).toBeVisible();
  await expect(page.getByText('This device')).toBeVisible();
  // The name in Latin letters on an English screen, as the bank card writes it (ICAO Doc 9303).
  await expect(page.getByTestId('settings-profile')).toContainText('Iuliia Shcherbakova');
  await expect(page.getByTestId('settings-profile')).not.toContainText('Юлия');
  await expect(page.getByTestId('greeting')).toHaveText('Hello, Iuliia!');
  await shot(page, 'english');

  // Remembered: a reload stays in English.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByTestId('settings-registered')).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);

  await page.getByRole('radio', { name: 'Русский' }).check();
  await expect(page.getByRole('heading', { level: 1, name: 'Настройки' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId('settings-identification').getByTestId('identification-level')).toHaveText(
    'Анонимный',
  );
  await expect(page.getByTestId('settings-profile')).toContainText('Юлия Щербакова');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Настройки' })).toBeVisible();
});

test('signing out another session from the list, then every other device: their tokens die', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const person = await registerPerson(request);
  const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const other = await loginAgain(request, person, firefox);
  expect(await answerFor(request, other)).toEqual({ status: 200, code: null });

  await signIn(page, person, '/settings');
  const list = page.getByTestId('session-list');
  await expect(list.getByTestId('session')).toHaveCount(2);
  const current = list.locator('[data-current]');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText('Это устройство');
  const firefoxRow = list.getByTestId('session').filter({ hasText: 'Firefox, Windows' });
  await expect(firefoxRow).toContainText('Вход:');
  await expect(firefoxRow).toContainText('Активность:');
  await shot(page, 'sessions');

  await firefoxRow.getByRole('button', { name: 'Завершить сеанс: Firefox, Windows' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Сеанс завершён' })).toBeVisible();
  await expect(list.getByTestId('session')).toHaveCount(1);
  await expect(page.getByText('Других активных сеансов нет')).toBeVisible();
  expect(await answerFor(request, other)).toEqual({ status: 401, code: 'INVALID_TOKEN' });
  // This device is still signed in.
  expect(await answerFor(request, person.token)).toEqual({ status: 200, code: null });

  // Two more devices, then 'sign out of all other devices'.
  const phoneAgent =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const third = await loginAgain(request, person, phoneAgent);
  await page.reload();
  await expect(list.getByTestId('session')).toHaveCount(2);
  await expect(list.getByTestId('session').filter({ hasText: 'Safari, iOS' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Выйти на всех других устройствах' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Вы вышли на всех других устройствах' }),
  ).toBeVisible();
  await expect(list.getByTestId('session')).toHaveCount(1);
  expect(await answerFor(request, third)).toEqual({ status: 401, code: 'INVALID_TOKEN' });
  expect(await answerFor(request, person.token)).toEqual({ status: 200, code: null });
  await expect(page).toHaveURL(/\/settings$/);
});

test('changing the PIN needs the old one; afterwards only the new PIN is accepted', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/settings');
  const oldGroup = page.getByRole('group', { name: 'Текущий PIN-код' });
  const newGroup = page.getByRole('group', { name: 'Новый PIN-код', exact: true });
  const repeatGroup = page.getByRole('group', { name: 'Новый PIN-код ещё раз' });
  const submit = page.getByRole('button', { name: 'Сменить PIN-код' });
  const type = async (group: typeof oldGroup, pin: string) => {
    await group.getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
    await page.keyboard.type(pin);
  };

  await expect(submit).toBeDisabled();
  await type(oldGroup, '1111');
  await type(newGroup, '1357');
  await type(repeatGroup, '1358');
  await expect(page.getByRole('alert')).toHaveText('Новые PIN-коды не совпадают');
  await expect(submit).toBeDisabled();
  await repeatGroup.getByRole('textbox', { name: 'Цифра 4 из 4' }).click();
  await page.keyboard.press('Backspace');
  await page.keyboard.type('7');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // A wrong old PIN: the server's PIN_INVALID, with the attempts left.
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText('Неверный PIN-код. Осталось попыток: 4');
  await expect(submit).toBeDisabled();
  await shot(page, 'pin-error');

  await type(oldGroup, PIN);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: 'PIN-код изменён' })).toBeVisible();
  await expect(submit).toBeDisabled();

  const verify = async (pin: string) => {
    const answer = await request.post('/v2/wallet/auth/pin/verify', {
      data: { pin },
      headers: auth(person.token),
    });
    return { status: answer.status(), code: ((await answer.json()) as { code?: string }).code ?? null };
  };
  expect(await verify(PIN)).toEqual({ status: 400, code: 'PIN_INVALID' });
  expect(await verify('1357')).toEqual({ status: 200, code: null });
});
