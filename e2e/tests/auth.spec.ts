/**
 * Register and sign in, in real Chromium against the real server (sandbox SMS), on a phone and a
 * desktop viewport. Codes are read from the sandbox outbox, as a tester would read the SMS.
 * The server's clock cannot be moved from a browser, so 'expired code' is exercised as the code
 * dying after five wrong tries (the same 'request a new code' path); waits for the real 60 s
 * resend cooldown make two tests long.
 */
import { gzipSync } from 'node:zlib';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { openProfilePanel, termsVersion } from './wallet-fixtures.ts';

const COOLDOWN_SECONDS = 60;

/** A fresh Russian mobile number: +7 999 and seven random digits. */
function newPhone(): { national: string; e164: string } {
  const national = `999${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  return { national, e164: `+7${national}` };
}

function newPerson() {
  const phone = newPhone();
  return { ...phone, firstName: 'Анна', lastName: 'Петрова', email: `anna.${phone.national}@example.ru` };
}

async function outbox(request: APIRequestContext, phone: string) {
  const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  expect(answer.ok()).toBe(true);
  return (await answer.json()).results as { code: string; created_at: string }[];
}

/** Waits for the SMS number `count` (1-based) to the phone and answers its code. */
async function codeNumber(request: APIRequestContext, phone: string, count: number): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const results = await outbox(request, phone);
      code = results[0]?.code ?? '';
      return results.length;
    })
    .toBe(count);
  expect(code).toMatch(/^\d{4}$/);
  return code;
}

const wrongCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

async function typeCode(page: Page, code: string) {
  const first = page.getByRole('textbox', { name: 'Цифра 1 из 4' });
  await first.click();
  await page.keyboard.type(code);
}

/** Fills register step 1 and presses continue. */
async function fillRegistration(page: Page, person: ReturnType<typeof newPerson>) {
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Зарегистрироваться' }).click();
  await expect(page).toHaveURL(/\/auth\/register$/);
  await expect(page.getByRole('heading', { name: 'Регистрация' })).toBeVisible();
  const continueButton = page.getByRole('button', { name: 'Продолжить' });
  await expect(continueButton).toBeDisabled();
  await page.getByLabel('Имя', { exact: true }).fill(person.firstName);
  await page.getByLabel('Фамилия', { exact: true }).fill(person.lastName);
  await page.getByLabel('E-mail', { exact: true }).fill(person.email);
  await page.getByLabel('Телефон', { exact: true }).pressSequentially(person.national);
  await expect(page.getByLabel('Телефон', { exact: true })).toHaveValue(
    `${person.national.slice(0, 3)} ${person.national.slice(3, 6)}-${person.national.slice(6, 8)}-${person.national.slice(8)}`,
  );
  // The terms, the tariffs and the memo are linked; continue waits for the consent
  // (docs/decisions/account.md#a-persons-account).
  const terms = page.getByTestId('register-terms');
  await expect(terms.getByRole('link')).toHaveCount(3);
  await expect(terms.getByRole('link', { name: /Памятка Банка России/ })).toHaveAttribute(
    'href',
    /^\/legal\/[\w.-]+\/memo\.ru\.html$/,
  );
  await expect(continueButton).toBeDisabled();
  await page.getByLabel(/Я прочитал\(а\) условия использования/).check();
  await continueButton.click();
}

/** Fills register step 1 and continues to the code step. */
async function startRegistration(page: Page, person: ReturnType<typeof newPerson>) {
  await fillRegistration(page, person);
  await expect(page.getByRole('heading', { name: 'Подтвердите номер' })).toBeVisible();
  // The code step writes the number as the one phone formatter does: '+7 999 123-45-67'.
  await expect(page.getByText(new RegExp(`\\+7\\s${person.national.slice(0, 3)}\\s`))).toBeVisible();
}

/** Registers through the API (for tests about signing in). */
async function registerByApi(request: APIRequestContext, person: ReturnType<typeof newPerson>) {
  const started = await request.post('/v2/wallet/auth/register', {
    data: {
      first_name: person.firstName,
      last_name: person.lastName,
      phone: person.e164,
      email: person.email,
      terms_version: await termsVersion(request),
    },
  });
  expect(started.ok()).toBe(true);
  const code = await codeNumber(request, person.e164, 1);
  const confirmed = await request.post('/v2/wallet/auth/register/phone/confirm', {
    data: { phone: person.e164, confirm_code: code },
  });
  const { auth_token: token } = await confirmed.json();
  const pin = await request.post('/v2/wallet/auth/register/set/pin', {
    data: { pin_code: '2468' },
    headers: { Authorization: `Token ${token}` },
  });
  expect(pin.ok()).toBe(true);
}

/** Reads 'Новый код можно запросить через N с' and waits those seconds. */
/** The resend button counts the server's cooldown down, disabled, then offers a new code. */
async function waitOutCooldown(page: Page) {
  const counting = page.getByTestId('resend-code');
  await expect(counting).toBeDisabled();
  await expect(counting).toHaveText(/Отправить код ещё раз через \d+ с/);
  const seconds = Number((await counting.textContent())?.match(/через (\d+) с/)?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(COOLDOWN_SECONDS);
  await expect(page.getByRole('button', { name: 'Отправить код ещё раз', exact: true })).toBeEnabled({
    timeout: (seconds + 5) * 1000,
  });
}

test('register, confirm, set a PIN, land signed in, sign out, sign in again with a new code', async ({
  page,
  request,
}) => {
  const person = newPerson();
  await startRegistration(page, person);

  const code = await codeNumber(request, person.e164, 1);
  const confirm = page.getByRole('button', { name: 'Продолжить' });
  await expect(confirm).toBeDisabled();
  await typeCode(page, code);
  await expect(confirm).toBeEnabled();
  await confirm.click();

  await expect(page.getByRole('heading', { name: 'Придумайте PIN-код' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Изменить номер|Назад/ })).toHaveCount(0);
  await typeCode(page, '1357');
  // Item 10: the PIN is typed twice; a different repeat is refused before anything is sent.
  const repeatFirst = page.getByRole('textbox', { name: 'Повтор PIN-кода: знак 1 из 4' });
  await repeatFirst.click();
  await page.keyboard.type('1358');
  await expect(page.getByText('PIN-коды не совпадают')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Продолжить' })).toBeDisabled();
  await page.keyboard.press('Backspace');
  await page.keyboard.type('7');
  await page.getByRole('button', { name: 'Продолжить' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Анна!');
  await page.reload();
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Анна!');

  // Sign-out is in the profile panel (on a phone it opens from the profile button).
  await openProfilePanel(page);
  await page.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem('e-wallet-session'))).not.toContain('"authToken":"');
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);

  await page.getByRole('link', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.getByLabel('Телефон', { exact: true }).pressSequentially(person.national);
  await page.getByRole('button', { name: 'Получить код' }).click();
  await expect(page.getByRole('heading', { name: 'Введите код из SMS' })).toBeVisible();
  const loginCode = await codeNumber(request, person.e164, 2);

  // Back returns to the phone; sending again within the cooldown goes on to the same code.
  await page.getByRole('button', { name: 'Назад' }).click();
  await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
  await page.getByRole('button', { name: 'Получить код' }).click();
  await expect(page.getByRole('heading', { name: 'Введите код из SMS' })).toBeVisible();
  await expect(page.getByText(/Новый код можно запросить через \d+ с/)).toBeVisible();

  const enter = page.getByRole('button', { name: 'Войти' });
  await expect(enter).toBeDisabled();
  await typeCode(page, wrongCode(loginCode));
  await enter.click();
  await expect(page.getByText('Неверный код')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);

  await typeCode(page, loginCode);
  await enter.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Анна!');
});

test('a wrong registration code shows the server message and keeps the code step', async ({
  page,
  request,
}) => {
  const person = newPerson();
  await startRegistration(page, person);
  const code = await codeNumber(request, person.e164, 1);
  await typeCode(page, wrongCode(code));
  await page.getByRole('button', { name: 'Продолжить' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Неверный код' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Подтвердите номер' })).toBeVisible();

  // 'Change number' goes back to step 1 with the details kept.
  await page.getByRole('button', { name: 'Изменить номер' }).click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(person.email);
});

test('registering a registered number goes on like any registration; the owner gets a notice, no code', async ({
  page,
  request,
}) => {
  const person = newPerson();
  await registerByApi(request, person);
  await startRegistration(page, { ...person, email: `other.${person.email}` });
  // Nothing on the page tells that the number has a wallet: the code step, as for a new number.
  const texts = await outbox(request, person.e164);
  expect(texts).toHaveLength(2);
  expect(texts[0]!.code).toBe('');
  await typeCode(page, '1234');
  await page.getByRole('button', { name: 'Продолжить' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Неверный код' })).toBeVisible();
});

test('a code dead after five wrong tries (our stand-in for an expired code) asks for a new one; the new code works', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const person = newPerson();
  await startRegistration(page, person);
  const code = await codeNumber(request, person.e164, 1);
  const confirm = page.getByRole('button', { name: 'Продолжить' });
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await typeCode(page, wrongCode(code));
    await confirm.click();
    await expect(page.getByText('Неверный код')).toBeVisible();
  }
  await typeCode(page, wrongCode(code));
  await confirm.click();
  await expect(page.getByText('Слишком много неверных попыток. Запросите новый код')).toBeVisible();
  // The right code no longer helps: it is dead.
  await typeCode(page, code);
  await confirm.click();
  await expect(page.getByText('Слишком много неверных попыток. Запросите новый код')).toBeVisible();

  const sendAgain = page.getByRole('button', { name: 'Отправить код ещё раз', exact: true });
  await waitOutCooldown(page);
  await sendAgain.click();
  await expect(page.getByText('Новый код отправлен')).toBeVisible();
  const fresh = await codeNumber(request, person.e164, 2);
  await typeCode(page, fresh);
  await confirm.click();
  await expect(page.getByRole('heading', { name: 'Придумайте PIN-код' })).toBeVisible();
});

test('send again on sign-in: the cooldown message first, then a new code that works', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const person = newPerson();
  await registerByApi(request, person);
  await page.goto('/auth/login');
  await page.getByLabel('Телефон', { exact: true }).pressSequentially(person.national);
  await expect(page.getByText('Мы отправим SMS с кодом подтверждения на этот номер.')).toBeVisible();
  await page.getByRole('button', { name: 'Получить код' }).click();
  await expect(page.getByRole('heading', { name: 'Введите код из SMS' })).toBeVisible();
  const first = await codeNumber(request, person.e164, 2);

  const sendAgain = page.getByRole('button', { name: 'Отправить код ещё раз', exact: true });
  await waitOutCooldown(page);
  await sendAgain.click();
  await expect(page.getByText('Новый код отправлен')).toBeVisible();
  const second = await codeNumber(request, person.e164, 3);

  const enter = page.getByRole('button', { name: 'Войти' });
  if (first !== second) {
    // The new code replaces the old one.
    await typeCode(page, first);
    await enter.click();
    await expect(page.getByText('Неверный код')).toBeVisible();
  }
  await typeCode(page, second);
  await enter.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Анна!');
});

test('sign-in of an unknown number goes on like any sign-in, and no SMS is sent', async ({
  page,
  request,
}) => {
  const { national, e164 } = newPhone();
  await page.goto('/auth/login');
  await page.getByLabel('Телефон', { exact: true }).pressSequentially(national);
  await page.getByRole('button', { name: 'Получить код' }).click();
  await expect(page.getByRole('heading', { name: 'Введите код из SMS' })).toBeVisible();
  expect(await outbox(request, e164)).toEqual([]);
  await typeCode(page, '1234');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByText('Неверный код')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('the country picker searches names and choosing a country clears the number', async ({ page }) => {
  await page.goto('/auth/login');
  const phone = page.getByLabel('Телефон', { exact: true });
  await phone.pressSequentially('912');
  await page.getByRole('button', { name: /Страна: Россия, код \+7/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Выберите страну' });
  await expect(dialog).toBeVisible();
  expect(await dialog.getByRole('listitem').count()).toBeGreaterThanOrEqual(230);
  await dialog.getByLabel('Поиск страны').fill('КАЗАХ');
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  const flag = dialog.locator('img.flag').first();
  await expect(flag).toHaveJSProperty('complete', true);
  expect(new URL(await flag.evaluate((img) => (img as HTMLImageElement).currentSrc)).origin).toBe(
    new URL(page.url()).origin,
  );
  await dialog.getByRole('button', { name: /Казахстан/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /Страна: Казахстан, код \+7/ })).toBeVisible();
  await expect(phone).toHaveValue('');
  await expect(phone).toBeFocused();
});

test('the signed-in area redirects to the landing without a token', async ({ page }) => {
  for (const path of ['/', '/history', '/wallet/topup', '/settings']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/auth$/);
  }
  await expect(page.getByRole('heading', { name: 'Кошелёк по номеру телефона' })).toBeVisible();
});

test('the sign-in page loads at most 130 KiB of gzip JavaScript', async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.set(response.url(), gzipSync(body, { level: 9 }).length);
  });
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Получить код' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  console.info(`/auth/login: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KiB gzip`);
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(130 * 1024);
});

test('landing, register and login have no serious accessibility violations', async ({ page }) => {
  for (const path of ['/auth', '/auth/register', '/auth/login']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, { serious: true, tags: ['wcag2a', 'wcag2aa', 'wcag21aa'] });
  }
});
