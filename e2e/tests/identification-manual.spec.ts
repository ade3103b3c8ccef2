/**
 * Identification by operator review (KYC_PROVIDER=manual) in real Chromium, on a phone and a
 * desktop: Settings' upgrade leads to the documents form, the person fills it in by keyboard and
 * mouse and attaches a photo, the verification waits for an operator, and after `npm run ops -- identification-approve`
 * the section shows the new level. The server is its own (manual identification, same database as
 * the ops command). With SHOTS_DIR set, the form and the waiting state are saved as screenshots.
 */
import { crc32, deflateSync } from 'node:zlib';
import { expect } from '@playwright/test';
// The back office's server (manual identification on PostgreSQL, so the ops command runs beside it).
import { runOps, test } from './backoffice-helpers.ts';
import { registerPerson, signIn } from './wallet-fixtures.ts';

/** A real PNG of a plain colour, so the browser can draw it again as the form does. */
function pngOf(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x9c)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the documents form sends the data, the section waits for an operator, approval raises the level', async ({
  page,
  request,
  ownServer,
}) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/settings');
  const section = page.getByTestId('settings-identification');
  await section.getByRole('button', { name: 'Повысить уровень' }).click();
  await expect(page).toHaveURL(/\/settings\?documents=[0-9a-f-]{36}$/);
  const applicationId = new URL(page.url()).searchParams.get('documents')!;

  const form = page.getByTestId('identification-documents');
  await expect(form.getByRole('heading', { name: 'Документы для проверки' })).toBeVisible();
  await form.getByLabel('Документ', { exact: true }).selectOption('snils');
  await form.getByLabel('Номер документа').fill('112-233-445 96');
  await form.getByLabel('ФИО полностью').fill('Соколова Мария Ивановна');
  await form.getByLabel('Дата рождения').fill('1990-05-17');
  await form.getByLabel('Фотографии документа (необязательно)').setInputFiles({
    name: 'snils.png',
    mimeType: 'image/png',
    buffer: pngOf(40, 24),
  });
  await expect(form.getByText('Выбрано фото: 1')).toBeVisible();
  if (process.env.SHOTS_DIR)
    await page.screenshot({
      path: `${process.env.SHOTS_DIR}/documents-form-${test.info().project.name}.png`,
      fullPage: true,
    });
  await form.getByRole('button', { name: 'Отправить на проверку' }).click();
  // A wrong check digit: the server names the field; the form stays.
  await expect(form.getByText('Проверьте поле «Номер документа»')).toBeVisible();
  await form.getByLabel('Номер документа').fill('112-233-445 95');
  await form.getByLabel('Номер документа').press('Enter');
  await expect(page.getByText('Документы отправлены. Мы сообщим о решении здесь.')).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('identification-documents')).toHaveCount(0);
  await expect(section.getByTestId('identification-status')).toHaveAttribute('data-status', 'in_review');
  if (process.env.SHOTS_DIR)
    await page.screenshot({
      path: `${process.env.SHOTS_DIR}/documents-waiting-${test.info().project.name}.png`,
      fullPage: true,
    });

  // The operator lists what waits and approves it; the person refreshes and sees the new level.
  expect(await runOps(ownServer.env, ['identification-list'])).toContain(applicationId);
  // The photo reached the operator once, although the form was sent twice.
  expect(await runOps(ownServer.env, ['identification-show', applicationId])).toContain('photos: 1');
  expect(await runOps(ownServer.env, ['identification-approve', applicationId])).toContain('approved');
  await section.getByRole('button', { name: 'Обновить статус' }).click();
  await expect(section.getByTestId('identification-level')).toHaveText('Упрощённый');
  await expect(section.getByTestId('identification-status')).toContainText('Проверка пройдена');
});
