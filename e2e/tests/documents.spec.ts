/**
 * Documents in the browser, on a phone and a desktop: the receipt of an operation from the history
 * (its PDF downloaded, its QR code decoded and the verify page opened from it, and the same page
 * refusing an altered code), the receipt from the pay modal's details after a withdrawal, and a
 * statement downloaded from the history as CSV and PDF. Screenshots go to /tmp/shots/documents-*.png.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import jsQRModule from 'jsqr';
import { expectNoAxeViolations } from './axe.ts';
import { PIN, payMerchant, registerPerson, signIn, topUp, upgradeToSimplified } from './wallet-fixtures.ts';

test.use({ serviceWorkers: 'block' });

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `/tmp/shots/documents-${name}-${width}.png` });
}

const noAxeViolations = (page: Page) => expectNoAxeViolations(page);

// jsqr is CommonJS with a `default` export in its types: Node hands the whole module over.
type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: DecodeQr }).default ?? jsQRModule) as unknown as DecodeQr;

/** The text a QR image on the page holds, read from its pixels with jsQR. */
async function decodeQr(image: Locator): Promise<string> {
  const pixels = await image.evaluate(async (element: HTMLImageElement) => {
    await element.decode();
    const canvas = document.createElement('canvas');
    canvas.width = element.naturalWidth;
    canvas.height = element.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(element, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, data: Array.from(data.data) };
  });
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  expect(code, 'a QR code on the receipt').not.toBeNull();
  return code!.data;
}

function pdfText(path: string): string {
  return execFileSync('pdftotext', ['-layout', path, '-']).toString('utf8');
}

test('a receipt from the history: PDF downloaded, QR decoded, the verify page opened from it', async ({
  page,
  request,
}) => {
  const person = await registerPerson(request);
  await topUp(request, person, '1500');
  await payMerchant(request, person, '250.75');
  await signIn(page, person, '/history');

  const rows = page.getByRole('list', { name: 'Операции' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  // The row opens the operation's page, where its receipt is.
  await rows.filter({ hasText: 'Три кита' }).getByRole('link').click();
  await page.getByRole('button', { name: 'Квитанция' }).click();
  const dialog = page.getByRole('dialog', { name: 'Квитанция об операции' });
  await expect(dialog.getByTestId('document-receipt-amount')).toContainText(nbsp('250,75 ₽'));
  await expect(dialog.getByTestId('document-receipt-counterparty')).toContainText('ООО «Три кита»');
  await expect(dialog.getByTestId('document-receipt-status')).toContainText('Выполнена');
  const qr = dialog.getByTestId('receipt-qr');
  await expect(qr).toBeVisible();
  await noAxeViolations(page);
  await shot(page, 'receipt');

  const verifyUrl = await decodeQr(qr);
  expect(verifyUrl).toMatch(/\/verify\/[A-Za-z0-9_-]{44}$/);
  await expect(dialog.getByTestId('verify-url')).toHaveText(verifyUrl);

  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Скачать PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^receipt-.+\.pdf$/);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(file);
  expect(text).toContain('Квитанция об операции');
  expect(text).toContain('250,75');

  // Without a share sheet (headless Chromium on Linux has none), the link is copied instead.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const share = dialog.getByRole('button', { name: /Поделиться|Скопировать ссылку/ });
  await share.click();
  if ((await share.textContent())?.includes('Скопировать')) {
    await expect(dialog.getByText('Ссылка на проверку скопирована')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(verifyUrl);
  }
  await dialog.getByRole('button', { name: 'Закрыть' }).click();
  await expect(dialog).toHaveCount(0);

  // Anyone opens the verify page: no sign-in.
  const stranger = await page.context().browser()!.newContext({ viewport: page.viewportSize()! });
  const verifyPage = await stranger.newPage();
  const opened = await verifyPage.goto(verifyUrl);
  expect(opened?.status()).toBe(200);
  await expect(verifyPage.getByRole('heading', { name: 'Квитанция подлинная' })).toBeVisible();
  await expect(verifyPage.getByText(nbsp('250,75 ₽'))).toBeVisible();
  await expect(verifyPage.getByText('ООО «Три кита»')).toBeVisible();
  await expect(verifyPage.getByText('Соколова')).toHaveCount(0);
  await expect(verifyPage.getByText('Мария С.')).toBeVisible();
  await verifyPage.screenshot({
    path: `/tmp/shots/documents-verify-${page.viewportSize()?.width}.png`,
    fullPage: true,
  });
  const code = verifyUrl.split('/').pop()!;
  const altered = `${verifyUrl.slice(0, -code.length)}${code[0] === 'A' ? 'B' : 'A'}${code.slice(1)}`;
  const refused = await verifyPage.goto(altered);
  expect(refused?.status()).toBe(404);
  await expect(verifyPage.getByRole('heading', { name: 'Квитанция не найдена' })).toBeVisible();
  await stranger.close();
});

test('a receipt from the pay modal’s details after a withdrawal', async ({ page, request }) => {
  const person = await registerPerson(request);
  await topUp(request, person, '2000');
  await upgradeToSimplified(request, person);
  await signIn(page, person, '/wallet/withdrawal');
  await page.getByLabel('Сумма', { exact: true }).fill('700');
  await page.getByLabel('Карта', { exact: true }).fill('4111111111111111');
  await page.getByRole('button', { name: 'Вывести' }).click();
  const modal = page.getByRole('dialog', { name: 'Вывод на карту' });
  await page.keyboard.type(PIN);
  await modal.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(modal.getByText('Заявка на вывод средств успешно создана!')).toBeVisible();
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  await modal.getByRole('button', { name: 'Квитанция' }).click();
  const dialog = page.getByRole('dialog', { name: 'Квитанция об операции' });
  await expect(dialog.getByTestId('document-receipt-amount')).toContainText(nbsp('700,00 ₽'));
  await expect(dialog.getByTestId('document-receipt-counterparty')).toContainText('411111******1111');
  await expect(dialog.getByTestId('verify-url')).toHaveText(/\/verify\//);
  await shot(page, 'receipt-from-details');
});

test('a statement from the history, as CSV and as PDF', async ({ page, request }) => {
  const person = await registerPerson(request);
  await topUp(request, person, '1500');
  await payMerchant(request, person, '250.75');
  await signIn(page, person, '/history');
  await expect(page.getByRole('list', { name: 'Операции' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('list', { name: 'Операции' }).scrollIntoViewIfNeeded();
  await shot(page, 'history');
  await page.getByRole('button', { name: 'Выписка' }).click();
  const dialog = page.getByRole('dialog', { name: 'Выписка по счёту' });
  await expect(dialog.getByLabel('Счёт')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(dialog.getByRole('radio', { name: 'Этот месяц' })).toBeChecked();
  await noAxeViolations(page);
  await shot(page, 'statement');

  await dialog.getByText('CSV — для Excel и таблиц').click();
  let downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Скачать выписку' }).click();
  let download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path());
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.toString('utf8').slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toBe('Дата и время (МСК);Операция;Тип;Сумма;Валюта;Остаток;Номер операции');
  expect(lines[1]).toContain(';Входящий остаток;;;RUB;0,00;');
  expect(lines.some((line) => line.includes(';1500,00;RUB;1500,00;'))).toBe(true);
  expect(lines.some((line) => line.includes(';-250,75;RUB;1249,25;'))).toBe(true);
  expect(lines[lines.length - 1]).toContain(';Исходящий остаток;;;RUB;1249,25;');
  await expect(dialog.getByText('Выписка скачана')).toBeVisible();

  await dialog.getByText('PDF — для печати и отправки').click();
  await dialog.getByText('Прошлый месяц').click();
  await dialog.getByText('3 месяца').click();
  downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Скачать выписку' }).click();
  download = await downloading;
  const text = pdfText(await download.path());
  expect(text).toContain('Выписка по счёту');
  expect(text).toContain('1 249,25');
  expect(text).toContain('Страница 1');
});

test('a statement from the account page with a custom period', async ({ page, request }) => {
  const person = await registerPerson(request);
  await topUp(request, person, '300');
  await signIn(page, person, '/wallet');
  const accounts = await (
    await request.get('/v2/wallet', { headers: { Authorization: `Token ${person.token}` } })
  ).json();
  await page.goto(`/wallet/${accounts.results[0].accounts[0].id}`);
  await page.getByRole('button', { name: 'Выписка' }).click();
  const dialog = page.getByRole('dialog', { name: 'Выписка по счёту' });
  await dialog.getByText('Свой период').click();
  const today = new Date().toISOString().slice(0, 10);
  await dialog.getByLabel('С', { exact: true }).fill(today);
  await dialog.getByText('CSV — для Excel и таблиц').click();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Скачать выписку' }).click();
  const csv = readFileSync(await (await downloading).path()).toString('utf8');
  expect(csv).toContain(';300,00;RUB;300,00;');
  await shot(page, 'statement-account');
});
