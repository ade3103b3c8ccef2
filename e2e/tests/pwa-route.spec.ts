/**
 * Browser tests mock API answers with page.route (e.g. money.spec.ts); the app-shell service
 * worker must not hide the page's API requests from them once it controls the page.
 */
import { expect, test } from '@playwright/test';

test('page.route still sees the API requests of a page the service worker controls', async ({ page }) => {
  await page.goto('/auth');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.route('**/v2/wallet/auth/info', (route) =>
    route.fulfill({ status: 418, json: { mocked: true } }),
  );
  const status = await page.evaluate(async () => (await fetch('/v2/wallet/auth/info')).status);
  expect(status).toBe(418);
  // A navigation answered from the service worker's cache still lets the app's calls be mocked.
  await page.reload();
  const again = await page.evaluate(async () => (await fetch('/v2/wallet/auth/info')).status);
  expect(again).toBe(418);
});
