/**
 * What the back-office browser tests share: a server of each test's own (manual identification on
 * PostgreSQL, so `npm run ops -- create-operator` runs beside it), with the back office on a free port
 * of its own, never the public one; operators made by the command line and signed in by keyboard; the
 * people's documents decided through the operators' API; axe and the screenshots.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type Browser, test as base, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import pg from 'pg';
import { expectNoAxeViolations } from './axe.ts';
import { defaultBuild, freePort, type RunningServer, startServer } from './brand-server.ts';
import type { Person } from './wallet-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENTS_KEY = 'e2e-documents-key-of-at-least-32-characters';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SNILS = { document_type: 'snils', document_number: '112-233-445 95', birth_date: '1990-05-17' };

export interface OpsServer extends RunningServer {
  env: Record<string, string>;
  opsUrl: string;
  databaseUrl: string;
}

/** Playwright's test with a server of each test's own, on a database named after `label`, with `env`. */
export function opsTest(label: string, extraEnv: Record<string, string>) {
  return base.extend<{ ownServer: OpsServer }>({
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    ownServer: async ({}, use) => {
      const name = `ewallet_e2e_${label}_${process.pid}_${Date.now() % 1_000_000}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      const opsPort = await freePort();
      const env = {
        ...extraEnv,
        DATABASE_URL: url.toString(),
        OPS_PORT: String(opsPort),
        OPS_HOST: '127.0.0.1',
      };
      const server = await startServer({ webDist: defaultBuild(), env });
      try {
        await use({ ...server, env, opsUrl: `http://127.0.0.1:${opsPort}`, databaseUrl: url.toString() });
      } finally {
        await server.stop();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    baseURL: async ({ ownServer }, use) => use(ownServer.url),
  });
}

export const test = opsTest('ops', { KYC_PROVIDER: 'manual', DOCUMENTS_KEY });

/** Saves a screen when SHOTS_DIR asks, named by the viewport. */
export async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.SHOTS_DIR) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${process.env.SHOTS_DIR}/backoffice-${name}-${width}.png`, fullPage: true });
}

/** No WCAG A/AA violation (contrast included) on the screen as it is. */
export const expectAccessible = (page: Page): Promise<void> =>
  expectNoAxeViolations(page, { tags: ['wcag2a', 'wcag2aa'] });

export interface Operator {
  email: string;
  password: string;
  secret: string;
}

/** `npm run ops -- <args>` beside a server, on its database (`env`); answers what it printed. */
export function runOps(env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['apps/server/src/ops/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
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

/** `npm run ops -- create-operator` against the server's database. */
export async function createOperator(server: OpsServer, role: string): Promise<Operator> {
  const email = `${role}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ops.example`;
  const out = await runOps(server.env, ['create-operator', '--email', email, '--role', role]);
  const password = /^password: (\S+)$/m.exec(out)?.[1];
  const secret = /^totp_secret: (\S+)$/m.exec(out)?.[1];
  if (!password || !secret) throw new Error(`create-operator: ${out}`);
  return { email, password, secret };
}

/** The first sign-in in the browser, by keyboard: the one-time password is refused until replaced. */
export async function signInOperator(page: Page, server: OpsServer, operator: Operator): Promise<void> {
  await page.goto(`${server.opsUrl}/`);
  await expect(page.getByRole('heading', { name: 'Вход оператора' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(operator.email);
  await page.getByLabel('Пароль', { exact: true }).fill(operator.password);
  await page
    .getByLabel('Код из приложения-аутентификатора')
    .fill(await generate({ secret: operator.secret }));
  await page.getByLabel('Код из приложения-аутентификатора').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Задайте новый пароль вместо одноразового');
  const fresh = `${operator.password}-mine`;
  await expect(page.getByLabel('Новый пароль (не короче 12 символов)')).toBeFocused();
  await page.keyboard.type(fresh);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('operator')).toContainText(operator.email);
  operator.password = fresh;
}

/** A browser of its own (another operator's session, or the person's) at the same size as the first's. */
export async function browserBeside(browser: Browser, beside: Page): Promise<Page> {
  const context = await browser.newContext({
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    viewport: beside.viewportSize(),
  });
  return context.newPage();
}

/** An API session of an operator (for the setup the browser test does not show). */
export async function opsToken(
  request: APIRequestContext,
  server: OpsServer,
  operator: Operator,
): Promise<string> {
  const answer = await request.post(`${server.opsUrl}/ops/v1/auth/login`, {
    data: {
      email: operator.email,
      password: operator.password,
      totp: await generate({ secret: operator.secret }),
      new_password: `${operator.password}-api`,
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  operator.password = `${operator.password}-api`;
  return ((await answer.json()) as { token: string }).token;
}

/** The person's documents sent for manual identification; answers the application id. */
export async function sendDocuments(request: APIRequestContext, person: Person): Promise<string> {
  const headers = { Authorization: `Token ${person.token}` };
  const started = await request.post('/v2/wallet/identification-level/upgrade', { headers, data: {} });
  expect(started.ok(), await started.text()).toBe(true);
  const id = ((await started.json()) as { verification_url: string }).verification_url.split('=').at(-1)!;
  const sent = await request.post('/v2/wallet/identification-level/documents', {
    headers,
    data: { ...SNILS, full_name: `${person.lastName} ${person.firstName} Ивановна`, application_id: id },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return id;
}

/** The person identified (simplified) by an operator through the API, so they may transfer. */
export async function identify(
  request: APIRequestContext,
  server: OpsServer,
  opsToken: string,
  person: Person,
): Promise<void> {
  const id = await sendDocuments(request, person);
  const approved = await request.post(`${server.opsUrl}/ops/v1/identifications/${id}/approve`, {
    headers: { Authorization: `Token ${opsToken}` },
  });
  expect(approved.ok(), await approved.text()).toBe(true);
}
