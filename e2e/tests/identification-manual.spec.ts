/**
 * Identification by operator review (KYC_PROVIDER=manual) in real Chromium, on a phone and a
 * desktop: Settings' upgrade leads to the documents form, the person fills it in by keyboard and
 * mouse and attaches a photo, the verification waits for an operator, and after `npm run ops -- identification-approve`
 * the section shows the new level. The server is its own (manual identification, same database as
 * the ops command). With SHOTS_DIR set, the form and the waiting state are saved as screenshots.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { test as base, expect } from '@playwright/test';
import pg from 'pg';
import { defaultBuild, type RunningServer, startServer } from './brand-server.ts';
import { registerPerson, signIn } from './wallet-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENTS_KEY = 'e2e-documents-key-of-at-least-32-characters';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface ManualServer extends RunningServer {
  env: Record<string, string>;
}

// PostgreSQL, so the ops command can run beside the server (embedded PGlite is one process).
const test = base.extend<{ ownServer: ManualServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  ownServer: async ({}, use) => {
    const name = `ewallet_e2e_manual_${process.pid}_${Date.now() % 1_000_000}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const env = { KYC_PROVIDER: 'manual', DOCUMENTS_KEY, DATABASE_URL: url.toString() };
    const server = await startServer({ webDist: defaultBuild(), env });
    try {
      await use({ ...server, env });
    } finally {
      await server.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
  baseURL: async ({ ownServer }, use) => use(ownServer.url),
});

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

/** `npm run ops -- <args>` against the server's database; answers what it printed. */
function ops(server: ManualServer, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['apps/server/src/ops/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...server.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`ops ${args[0]}: ${code} ${out}`)),
    );
  });
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
  expect(await ops(ownServer, ['identification-list'])).toContain(applicationId);
  // The photo reached the operator once, although the form was sent twice.
  expect(await ops(ownServer, ['identification-show', applicationId])).toContain('photos: 1');
  expect(await ops(ownServer, ['identification-approve', applicationId])).toContain('approved');
  await section.getByRole('button', { name: 'Обновить статус' }).click();
  await expect(section.getByTestId('identification-level')).toHaveText('Упрощённый');
  await expect(section.getByTestId('identification-status')).toContainText('Проверка пройдена');
});
