/**
 * Paying by QR code in the browser against the real server (docs/decisions/qr-codes.md#qr-codes-we-read): on
 * a desktop, a receive-QR image of another user dropped on the drop area and paid (a transfer), a GOST QR
 * image uploaded and paid (the payout to the bank settles in the sandbox), a text file refused as
 * the wrong type, and an unknown code shown as unavailable with nothing to send. On a phone, the
 * two tabs and the user's own receive QR. Images are generated here with the `qrcode` package.
 */
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { dropFile, qrPng, walletQr } from './payment-qr-helpers.ts';
import {
  merchantQr,
  PIN,
  registerPerson,
  rubBalance,
  signIn,
  topUp,
  upgradeToSimplified,
} from './wallet-fixtures.ts';

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  // Phones: what the screen shows (a full-page shot would paint the fixed tab bar mid-page).
  const project = test.info().project.name;
  if (dir) await page.screenshot({ path: `${dir}/qr-${name}-${project}.png`, fullPage: project !== 'phone' });
}

const expectNoSeriousAxeViolations = (page: Page) => expectNoAxeViolations(page, { serious: true });

async function confirmWithPin(page: Page) {
  const modal = page.getByTestId('pay-modal');
  await expect(modal.getByRole('heading', { name: 'Подтвердите платёж' })).toBeVisible();
  await modal.getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  return modal;
}

test.describe('desktop', () => {
  test.skip(({ isMobile }) => isMobile, 'the upload page is the desktop layout');

  test('a dropped receive QR of another user is paid to them after the PIN', async ({ page, request }) => {
    const [payer, payee] = await Promise.all([
      registerPerson(request, { firstName: 'Анна', lastName: 'Волкова' }),
      registerPerson(request, { firstName: 'Пётр', lastName: 'Иванов' }),
    ]);
    await Promise.all([upgradeToSimplified(request, payer), upgradeToSimplified(request, payee)]);
    await topUp(request, payer, '1000.00');
    await signIn(page, payer, '/payment');

    await expect(page.getByRole('heading', { level: 1, name: 'Отправить по QR-коду' })).toBeVisible();
    await expect(page.getByText('Форматы: PNG, JPG')).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Счёт списания' }).getByTestId('account-balance'),
    ).toHaveText(['1\u00a0000,00\u00a0₽']);
    await shot(page, 'desktop-empty');

    const dropArea = page.getByTestId('qr-drop-area');
    await dropFile(page, dropArea, {
      name: 'receive-qr.png',
      type: 'image/png',
      bytes: await qrPng(walletQr(payee.phone, '250.50')),
    });
    await expect(dropArea.getByRole('img', { name: 'Выбранное изображение' })).toBeVisible();
    const payment = page.getByTestId('qr-payment');
    await expect(payment.getByTestId('qr-recipient')).toHaveText('Пётр И.');
    await expect(payment.getByTestId('qr-amount')).toHaveText('250,50\u00a0₽');
    // Item 11: the raw code string is not shown; the monthly limit meter is, before the PIN.
    await expect(payment.getByText(walletQr(payee.phone, '250.50'))).toHaveCount(0);
    await expect(payment.getByTestId('limit-meter')).toContainText('в этом месяце');
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'desktop-wallet');

    await payment.getByRole('button', { name: 'Отправить' }).click();
    const modal = await confirmWithPin(page);
    await expect(modal.getByText('Оплата выполнена')).toBeVisible();
    await expect.poll(() => rubBalance(request, payee)).toBe('250.50');
    expect(await rubBalance(request, payer)).toBe('749.50');
    await modal.getByRole('button', { name: 'Готово' }).click();
    await expect(
      page.getByRole('region', { name: 'Счёт списания' }).getByTestId('account-balance'),
    ).toHaveText(['749,50\u00a0₽']);
  });

  test('an uploaded GOST QR is paid to the bank account; the payout settles', async ({ page, request }) => {
    const payer = await registerPerson(request);
    await topUp(request, payer, '2000.00');
    await signIn(page, payer, '/payment');

    const gost = `${merchantQr()}|Sum=125000|Purpose=Оплата по счёту 17`;
    await page.getByLabel('Загрузите изображение QR-кода').setInputFiles({
      name: 'invoice.jpg',
      mimeType: 'image/png',
      buffer: await qrPng(gost),
    });
    const payment = page.getByTestId('qr-payment');
    await expect(payment.getByTestId('qr-payee')).toHaveText('ООО «Три кита»');
    await expect(payment.getByTestId('qr-bank')).toHaveText('ПАО Сбербанк');
    await expect(payment.getByTestId('qr-amount')).toHaveText('1\u00a0250,00\u00a0₽');
    await shot(page, 'desktop-gost');

    await payment.getByRole('button', { name: 'Отправить' }).click();
    const modal = await confirmWithPin(page);
    await expect(modal.getByText('Платёж принят и будет зачислен получателю')).toBeVisible();
    await modal.getByRole('button', { name: 'Подробнее' }).click();
    // The modal follows the pending payout until the sandbox settles it.
    await expect(modal.getByTestId('receipt-status')).toContainText('Выполнено', { timeout: 20_000 });
    expect(await rubBalance(request, payer)).toBe('750.00');
  });

  test('a GOST QR without a sum asks for the amount; wrong amounts are explained', async ({
    page,
    request,
  }) => {
    const payer = await registerPerson(request);
    await topUp(request, payer, '500.00');
    await signIn(page, payer, '/payment');
    await page.getByLabel('Загрузите изображение QR-кода').setInputFiles({
      name: 'shop.png',
      mimeType: 'image/png',
      buffer: await qrPng(merchantQr('ИП Смирнов')),
    });
    const payment = page.getByTestId('qr-payment');
    await expect(payment.getByTestId('qr-payee')).toHaveText('ИП Смирнов');
    const amount = payment.getByLabel('Сумма платежа');
    await amount.fill('0');
    await expect(payment.getByText('Сумма должна быть больше нуля')).toBeVisible();
    await amount.fill('99.9');
    await payment.getByRole('button', { name: 'Отправить' }).click();
    const modal = await confirmWithPin(page);
    await expect(modal.getByText('Платёж принят и будет зачислен получателю')).toBeVisible();
    await expect.poll(() => rubBalance(request, payer)).toBe('400.10');
  });

  test('a text file is refused as the wrong type; an unknown code moves nothing', async ({
    page,
    request,
  }) => {
    const payer = await registerPerson(request);
    await signIn(page, payer, '/payment');
    const input = page.getByLabel('Загрузите изображение QR-кода');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('ST00012|Name=x'),
    });
    await expect(page.getByTestId('qr-upload-error')).toHaveText(
      'Неверный тип файла. Загрузите изображение PNG или JPG',
    );
    await expect(page.getByTestId('qr-payment')).toHaveCount(0);
    await shot(page, 'desktop-wrong-type');

    await input.setInputFiles({
      name: 'link.png',
      mimeType: 'image/png',
      buffer: await qrPng('https://example.com/promo'),
    });
    const payment = page.getByTestId('qr-payment');
    // Item 3: random text is not a payment code, said with what was read (not the outage text).
    await expect(payment.getByTestId('qr-unavailable')).toContainText('Это не платёжный QR-код');
    await expect(payment.getByTestId('qr-unavailable')).not.toContainText('временно недоступна');
    await expect(payment.getByTestId('qr-unavailable')).toContainText('https://example.com/promo');
    await expect(payment.getByRole('button', { name: 'Отправить' })).toHaveCount(0);

    await input.setInputFiles({
      name: 'sbp.png',
      mimeType: 'image/png',
      buffer: await qrPng(
        'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111&sum=10000&cur=RUB&crc=AB75',
      ),
    });
    await expect(payment.getByTestId('qr-unavailable')).toContainText('участника СБП');
    await expect(payment.getByRole('button', { name: 'Отправить' })).toHaveCount(0);
  });
});

test.describe('phone', () => {
  test.skip(({ isMobile }) => !isMobile, 'the tabs are the phone layout');

  test('tabs: your QR draws the own receive QR with an optional amount; scan without a camera offers the upload', async ({
    page,
    request,
  }) => {
    const person = await registerPerson(request);
    await signIn(page, person, '/payment');
    const own = page.getByRole('tab', { name: 'Мой QR' });
    await expect(own).toHaveAttribute('aria-selected', 'true');
    const image = page.getByTestId('own-qr-image');
    await expect(image).toHaveAttribute('data-qr-text', walletQr(person.phone));
    await page.getByLabel('Сумма (необязательно)').fill('300');
    await expect(image).toHaveAttribute('data-qr-text', walletQr(person.phone, '300.00'));
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'phone-own');

    // This browser has no camera: the scanner says so and the upload is the way.
    await page.getByRole('tab', { name: 'Сканировать QR' }).click();
    await expect(page.getByTestId('camera-problem')).toBeVisible();
    await expect(page.locator('body')).toHaveClass(/scanner-active/);
    await page.getByLabel('Загрузите изображение QR-кода').setInputFiles({
      name: 'shop.png',
      mimeType: 'image/png',
      buffer: await qrPng(merchantQr()),
    });
    await expect(page.getByTestId('qr-payment').getByTestId('qr-payee')).toHaveText('ООО «Три кита»');
    await expect(page.locator('body')).not.toHaveClass(/scanner-active/);
  });
});
