import { expect, test } from '@playwright/test';

test('the app is served with its start-up version file', async ({ page, request }) => {
  const version = await request.get('/version.json?1');
  expect(await version.json()).toEqual({ version: '0.0.1' });
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
});
