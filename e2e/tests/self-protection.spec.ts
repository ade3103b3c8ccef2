/**
 * Self-protection and the answers before the PIN, in real Chromium against the real server, on a
 * phone (390 px) and a desktop (1440 px): freezing from Settings and from the profile panel, the
 * frozen state across the app, unfreezing with a fresh SMS code (its countdown) and the PIN, 'Это не
 * я' on an outgoing operation and on the new-device notice; the transfer, withdrawal and QR screens'
 * problems and limit meter before the PIN. Screenshots go to $SHOTS_DIR (default /tmp/shots).
 */
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { qrPng } from './payment-qr-helpers.ts';
import {
  merchantQr,
  type Person,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');
const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 600;

async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR ?? '/tmp/shots'}/protect-${name}-${width}.png` });
}

const noSeriousAxeViolations = (page: Page) => expectNoAxeViolations(page, { serious: true });

async function latestCode(request: APIRequestContext, phone: string, count: number): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      const results = (await answer.json()).results as { code: string }[];
      code = results[0]?.code ?? '';
      return results.length;
    })
    .toBe(count);
  return code;
}

async function typeDigits(page: Page, firstBox: string, digits: string) {
  await page.getByRole('textbox', { name: firstBox, exact: true }).click();
  await page.keyboard.type(digits);
}

async function authInfo(request: APIRequestContext, person: Person) {
  const answer = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${person.token}` },
  });
  return (await answer.json()) as { is_frozen: boolean };
}

test('freeze in Settings: the frozen state across the app, then unfreeze with a fresh code and the PIN', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const person = await registerPerson(request);
  await upgradeToSimplified(request, person);
  await topUp(request, person, '1000');
  await signIn(page, person, '/settings');

  // Item 5: Settings shows the profile once; the side panel (and its profile button) is gone here.
  await expect(page.getByRole('heading', { name: 'Настройки', level: 1 })).toBeVisible();
  await expect(page.locator('#profile-panel')).toHaveCount(0);
  await expect(page.getByTestId('settings-identification')).toHaveCount(1);
  await shot(page, 'settings');

  const security = page.locator('#security');
  await security.getByRole('button', { name: 'Заблокировать кошелёк' }).click();
  const dialog = page.getByRole('dialog', { name: 'Заблокировать кошелёк?' });
  await expect(dialog).toContainText('Деньги по-прежнему смогут поступать');
  await shot(page, 'freeze-confirm');
  await dialog.getByRole('button', { name: 'Заблокировать', exact: true }).click();
  // Done, the dialog says so instead of asking again.
  const frozen = page.getByRole('dialog', { name: 'Кошелёк заблокирован' });
  await expect(frozen.getByRole('status')).toContainText('Исходящие операции недоступны');
  await frozen.getByRole('button', { name: 'Закрыть' }).first().click();
  expect((await authInfo(request, person)).is_frozen).toBe(true);

  // The frozen state across the app: a banner on every page, and the check refuses before the PIN.
  await page.getByRole('link', { name: 'Главная' }).first().click();
  const banner = page.getByTestId('frozen-banner');
  await expect(banner).toContainText('Кошелёк заблокирован');
  await noSeriousAxeViolations(page);
  await shot(page, 'frozen-home');
  await page.goto('/wallet/withdrawal');
  await page.getByLabel('Сумма', { exact: true }).fill('100');
  await expect(page.locator('[data-code="WALLET_FROZEN"]')).toContainText('Кошелёк заблокирован');
  await page.getByLabel('Карта', { exact: true }).fill('4111 1111 1111 1111');
  await expect(page.getByRole('button', { name: 'Вывести' })).toBeDisabled();

  // Unfreeze: a fresh SMS code to one's own phone, with the 60-second countdown, and the PIN.
  await banner.getByRole('link', { name: 'Разблокировать в настройках' }).click();
  await expect(page).toHaveURL(/\/settings#security$/);
  const form = page.getByTestId('unfreeze-form');
  await form.getByRole('button', { name: 'Получить код' }).click();
  const resend = page.getByTestId('unfreeze-send-code');
  await expect(resend).toHaveText(/Отправить код ещё раз через (60|59|58) с/);
  await expect(resend).toBeDisabled();
  // It counts down.
  await expect(resend).toHaveText(/через (5\d) с/, { timeout: 5000 });
  const code = await latestCode(request, person.phone, 2);
  await typeDigits(page, 'Цифра 1 из 4 кода', code);
  await typeDigits(page, 'Цифра 1 из 4 PIN-кода', '1111');
  await form.getByRole('button', { name: 'Разблокировать' }).click();
  await expect(form.getByText(/Неверный PIN-код/)).toBeVisible();
  await security.screenshot({
    path: `${process.env.SHOTS_DIR ?? '/tmp/shots'}/protect-unfreeze-${page.viewportSize()?.width}.png`,
  });
  await typeDigits(page, 'Цифра 1 из 4 PIN-кода', PIN);
  await form.getByRole('button', { name: 'Разблокировать' }).click();
  await expect(page.locator('#security').getByRole('status')).toHaveText('Кошелёк разблокирован');
  await expect(page.getByTestId('frozen-banner')).toHaveCount(0);
  expect((await authInfo(request, person)).is_frozen).toBe(false);
});

test('freeze from the profile panel (on a phone it opens from the profile button)', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request, { firstName: 'Константин', lastName: 'Александровский' });
  await signIn(page, person, '/');
  await expect(page.getByTestId('greeting')).toHaveText('Здравствуйте, Константин!');
  // Item 6: the greeting is whole, not cut with an ellipsis.
  const greeting = page.getByTestId('greeting');
  expect(await greeting.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);

  const panel = page.locator('#profile-panel');
  if (isPhone(page)) {
    // Item 5: on a phone the panel is not appended under every page; the profile button opens it.
    await expect(panel).toBeHidden();
    await page.getByRole('button', { name: 'Открыть профиль' }).click();
  }
  await expect(panel).toBeVisible();
  // Item 6: an e-mail wraps only at '@', never inside a word.
  const email = panel.getByTestId('profile-email');
  await expect(email).toHaveText(person.email);
  await expect(panel).toBeInViewport();
  await shot(page, 'profile-panel');
  await panel.getByRole('button', { name: 'Заблокировать кошелёк' }).click();
  const dialog = page.getByRole('dialog', { name: 'Заблокировать кошелёк?' });
  await dialog.getByRole('button', { name: 'Заблокировать', exact: true }).click();
  await expect(page.getByTestId('frozen-banner')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Заблокировать кошелёк' })).toHaveCount(0);
  expect((await authInfo(request, person)).is_frozen).toBe(true);
});

test("'Это не я' on an outgoing operation in history: a reason, the report, the frozen wallet", async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await upgradeToSimplified(request, person);
  await topUp(request, person, '2000');
  const withdrawal = await request.post('/v2/wallet/withdrawal', {
    data: { amount: '300.00', pan: '4111111111111111', currency_code: 'RUB', pin: PIN },
    headers: { Authorization: `Token ${person.token}`, 'Idempotency-Key': randomUUID() },
  });
  expect(withdrawal.ok(), await withdrawal.text()).toBe(true);
  // Statistics count settled money: wait for the sandbox payout.
  await expect
    .poll(async () => {
      const answer = await request.get('/v2/wallet/transaction', {
        headers: { Authorization: `Token ${person.token}` },
      });
      const results = (await answer.json()).results as { kind: string; status: string }[];
      return results.find((transaction) => transaction.kind === 'withdrawal')?.status;
    })
    .toBe('complete');
  await signIn(page, person, '/history');

  const rows = page.getByRole('list', { name: 'Операции' }).getByRole('listitem');
  const outgoing = rows.filter({ hasText: 'Вывод на карту' });
  // Item 9: the card reads as everywhere else, never as the raw mask.
  await expect(outgoing).toContainText('4111 11•• •••• 1111');
  await expect(page.getByText('411111******1111')).toHaveCount(0);
  // A row carries no actions: 'Это не я' is on the operation's page, for outgoing operations.
  await expect(rows.getByRole('button')).toHaveCount(0);
  // Item 7: money in and out apart in the chart's centre, never one sum of both.
  await expect(page.getByTestId('stat-income')).toHaveText(nbsp('+2 000,00 ₽'));
  await expect(page.getByTestId('stat-spent')).toHaveText(nbsp('−300,00 ₽'));
  await outgoing.scrollIntoViewIfNeeded();
  await shot(page, 'history');

  await outgoing.getByRole('link').click();
  await page.getByRole('button', { name: /^Это не я: Вывод на карту/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Сообщить о чужой операции' });
  await dialog.getByRole('button', { name: 'Сообщить и заблокировать' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Опишите коротко, что произошло');
  await dialog.getByLabel('Что произошло').fill('Не выводил, карта не моя');
  await shot(page, 'not-me');
  await dialog.getByRole('button', { name: 'Сообщить и заблокировать' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Спасибо, сообщение передано. Кошелёк заблокирован.');
  await dialog.getByRole('button', { name: 'Закрыть' }).first().click();
  await expect(page.getByTestId('frozen-banner')).toBeVisible();
  expect((await authInfo(request, person)).is_frozen).toBe(true);
});

test("'Это не я' on the new-device notice freezes the wallet and ends that device's session", async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  // Someone signs in from an iPhone.
  const sent = await request.post('/v2/wallet/auth/send_code', { data: { phone: person.phone } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const code = await latestCode(request, person.phone, 2);
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Safari/604.1';
  const login = await request.post('/v2/wallet/auth/login', {
    data: { phone: person.phone, confirm_code: code },
    headers: { 'User-Agent': iphone },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const stranger = (await login.json()) as { auth_token: string };

  await signIn(page, person, '/');
  await page.getByTestId('notifications-bell').click();
  const notice = page.getByRole('listitem').filter({ hasText: 'Вход в кошелёк с нового устройства' });
  await expect(notice).toContainText('Safari, iOS');
  await shot(page, 'new-device');
  await notice.getByRole('button', { name: 'Это не я' }).click();
  const dialog = page.getByRole('dialog', { name: 'Это были не вы?' });
  await expect(dialog).toContainText('завершим все другие сеансы');
  await dialog.getByRole('button', { name: 'Заблокировать', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Кошелёк заблокирован' }).getByRole('status')).toContainText(
    'Исходящие операции недоступны',
  );
  // The other device is signed out.
  const theirs = await request.get('/v2/wallet/auth/info', {
    headers: { Authorization: `Token ${stranger.auth_token}` },
  });
  expect(theirs.status()).toBe(401);
  expect((await authInfo(request, person)).is_frozen).toBe(true);
});

test('transfer: problems and the limit meter before the PIN; the PIN opens only for a transfer that can go', async ({
  page,
  request,
}) => {
  const [sender, recipient] = await Promise.all([
    registerPerson(request, { firstName: 'Мария', lastName: 'Соколова' }),
    registerPerson(request, { firstName: 'Иван', lastName: 'Петров' }),
  ]);
  await upgradeToSimplified(request, sender);
  await upgradeToSimplified(request, recipient);
  await topUp(request, sender, '3000');
  await signIn(page, sender, '/');
  await expect(page.getByTestId('account-balance').first()).toBeVisible();
  // Item 6: the new-account card is white with dark text, not dark blue on blue.
  await expect(page.locator('.account-card--new')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  await shot(page, 'home');

  // Item 1: the transfer is in the main navigation and on Home.
  await expect(
    page.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Перевод' }),
  ).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Перевести' }).click();
  await expect(page).toHaveURL(/\/wallet\/save$/);
  // Only 'Перевод' is the current section, not 'Счета' as well.
  await expect(page.locator('.home-nav [aria-current="page"]')).toHaveText('Перевод');

  await page.getByLabel('Сумма', { exact: true }).fill('5000');
  const phone = page.getByLabel('Телефон получателя');
  await phone.pressSequentially(recipient.national);
  // Item 9: the number reads as it does everywhere else.
  await expect(phone).toHaveValue(
    `${recipient.national.slice(0, 3)} ${recipient.national.slice(3, 6)}-${recipient.national.slice(6, 8)}-${recipient.national.slice(8)}`,
  );
  await expect(page.getByText('Иван П.')).toBeVisible();
  await expect(page.locator('[data-code="INSUFFICIENT_FUNDS"]')).toBeVisible();
  const submit = page.getByRole('button', { name: 'Перевести' });
  await expect(submit).toBeDisabled();
  await expect(page.getByTestId('limit-meter')).toContainText(
    nbsp('осталось 200 000,00 ₽ из 200 000,00 ₽ в этом месяце'),
  );
  await noSeriousAxeViolations(page);
  await shot(page, 'transfer-problem');
  await page.locator('.money-flow__panel').screenshot({
    path: `${process.env.SHOTS_DIR ?? '/tmp/shots'}/protect-transfer-form-${page.viewportSize()?.width}.png`,
  });

  await page.getByLabel('Сумма', { exact: true }).fill('1500');
  await expect(page.locator('[data-code]')).toHaveCount(0);
  await submit.click();
  const modal = page.getByRole('dialog', { name: 'Перевод' });
  await expect(modal.getByLabel('Цифра 1 из 4')).toBeFocused();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Перевод выполнен')).toBeVisible();
  await modal.getByRole('button', { name: 'Готово' }).click();
  await expect.poll(() => rubBalance(request, recipient)).toBe('1500.00');
  // Item 8: the recipient is told from whom.
  const notices = await request.get('/v2/wallet/user/notification', {
    headers: { Authorization: `Token ${recipient.token}` },
  });
  expect(((await notices.json()).results as { message: string }[]).map((n) => n.message)).toContain(
    'Вам поступил перевод 1\u00a0500,00\u00a0₽. Отправитель: Мария С.',
  );
  await expect(page.getByTestId('limit-meter')).toContainText(nbsp('осталось 198 500,00 ₽'));
});

test('QR upload: a broken file after a good code clears the recipient and the send button', async ({
  page,
  request,
}) => {
  test.skip(isPhone(page), 'the upload is the desktop way; the phone scans');
  const payer = await registerPerson(request);
  await topUp(request, payer, '500');
  await signIn(page, payer, '/payment');
  const input = page.getByLabel('Загрузите изображение QR-кода');
  await input.setInputFiles({
    name: 'shop.png',
    mimeType: 'image/png',
    buffer: await qrPng(merchantQr('ИП Смирнов')),
  });
  const payment = page.getByTestId('qr-payment');
  await expect(payment.getByTestId('qr-payee')).toHaveText('ИП Смирнов');
  // The anonymous level's monthly limit, before the PIN.
  await expect(payment.getByTestId('limit-meter')).toContainText(
    nbsp('осталось 40 000,00 ₽ из 40 000,00 ₽ в этом месяце'),
  );
  await payment.getByLabel('Сумма платежа').fill('900');
  await expect(payment.locator('[data-code="INSUFFICIENT_FUNDS"]')).toBeVisible();
  await expect(payment.getByRole('button', { name: 'Отправить' })).toBeDisabled();
  await shot(page, 'qr-problem');

  // Item 2: a PNG that is not a picture: the old payee and 'Отправить' go, no broken preview shows.
  await input.setInputFiles({
    name: 'broken.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not an image'),
  });
  await expect(page.getByTestId('qr-upload-error')).toBeVisible();
  await expect(page.getByTestId('qr-payment')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Отправить' })).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Выбранное изображение' })).toHaveCount(0);
  await shot(page, 'qr-broken');
});

test('the landing says its headline once (item 11)', async ({ page }) => {
  await page.goto('/auth');
  await expect(
    page.getByText('Пополняйте, переводите и платите по QR-коду — всё в одном приложении.'),
  ).toHaveCount(1);
  const headline = await page.getByRole('heading', { level: 1 }).textContent();
  await expect(page.getByText(headline ?? '', { exact: true })).toHaveCount(1);
  await shot(page, 'landing');
});
