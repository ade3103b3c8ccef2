import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests in the system Chromium (never a downloaded browser) against the real server on
 * a fresh embedded database, serving the built app. Two viewports: a phone and a desktop.
 */
const port = Number(process.env.E2E_PORT ?? 8181);
/** The shared server's back office (never the public port): OPS_PORT, else 100 above the app's. */
const opsPort = Number(process.env.OPS_PORT ?? port + 100);
const dataDir = `${process.env.TMPDIR ?? '/tmp'}/ewallet-e2e-${process.pid}`;
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, browserName: 'chromium' },
    },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && npm run start -w @e-wallet/server`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      OPS_PORT: String(opsPort),
      OPS_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SANDBOX_PAYOUT_DELAY_MS: '1500',
      // An СБП fee, so the browser tests see it before the PIN and in the receipt (sbp.spec.ts).
      SBP_FEE_BASIS_POINTS: '50',
      // Browser tests register many people from one address.
      SMS_PER_ADDRESS_PER_HOUR: '100000',
      CODE_CHECKS_PER_ADDRESS_PER_HOUR: '100000',
      // A build of the app elsewhere than apps/web/dist (parallel runs build into their own folders).
      ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    },
  },
});
