/**
 * The camera scanner on a phone with Chromium's fake camera playing a Y4M video of a receive QR
 * (generated here): the scanner opens with its frame, scanning line and the body marker, reads the
 * code inside the frame, and the payment is shown. Its own browser: the fake-media flags apply at
 * launch, so this file sets launchOptions.
 */
import { expect, test } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.ts';
import { qrY4m, registerWithPhone, tempFile, walletQr } from './payment-qr-helpers.ts';
import { PIN, registerPerson, rubBalance, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

// The video must exist before the browser starts; the payee's phone is fixed in the code and
// registered in the test (a random 10-digit suffix per run keeps runs apart).
const payeePhone = `+79${String(Date.now()).slice(-9)}`;
const video = tempFile(`receive-qr-${process.pid}.y4m`, qrY4m(walletQr(payeePhone, '120.00')));

test.use({
  permissions: ['camera'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...chromiumArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  },
});

test.skip(({ isMobile }) => !isMobile, 'the camera scanner is the phone layout');

test('the scanner reads a receive QR inside its frame, shows the payment and pays it', async ({
  page,
  request,
}) => {
  const [payer, payee] = await Promise.all([
    registerPerson(request),
    registerWithPhone(request, payeePhone, 'Ольга', 'Кузнецова'),
  ]);
  await Promise.all([upgradeToSimplified(request, payer), upgradeToSimplified(request, payee)]);
  await topUp(request, payer, '500.00');
  await signIn(page, payer, '/payment');
  await page.getByRole('tab', { name: 'Сканировать QR' }).click();

  const scanner = page.getByTestId('qr-scanner');
  await expect(scanner).toHaveAttribute('data-state', 'scanning');
  await expect(page.locator('body')).toHaveClass(/scanner-active/);
  // The video starts with the code across the frame's edge: it is read (kept as the address) but
  // not accepted, and the person is told to bring it inside.
  await expect(scanner.getByText('Код найден — поместите его целиком в рамку')).toBeVisible();
  await expect(page.getByTestId('qr-payment')).toHaveCount(0);
  const line = page.getByTestId('scan-line');
  const before = await line.getAttribute('class');
  await expect.poll(() => line.getAttribute('class'), { timeout: 2500, intervals: [100] }).not.toBe(before);
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/qr-phone-scan-${test.info().project.name}.png` });

  const payment = page.getByTestId('qr-payment');
  await expect(payment.getByTestId('qr-amount')).toBeVisible({ timeout: 15_000 });
  await expect(payment.getByTestId('qr-amount')).toHaveText('120,00\u00a0₽');
  // The scanner is closed: the camera stops and the marker is gone.
  await expect(scanner).toHaveCount(0);
  await expect(page.locator('body')).not.toHaveClass(/scanner-active/);
  await expect(payment.getByTestId('qr-recipient')).toHaveText('Ольга К.');

  await payment.getByRole('button', { name: 'Отправить' }).click();
  const modal = page.getByTestId('pay-modal');
  await modal.getByRole('textbox', { name: 'Цифра 1 из 4' }).click();
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Оплата выполнена')).toBeVisible();
  await expect.poll(() => rubBalance(request, payee)).toBe('120.00');
});
