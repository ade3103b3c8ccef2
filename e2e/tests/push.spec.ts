/**
 * Web Push in the app's service worker (docs/decisions/live-wallet.md#the-live-wallet): a push delivered to
 * the worker (through Chromium's DevTools protocol, as a push service would) is shown as a notification with
 * the server's title and text, and clicking it takes the open tab to the screen it names.
 * The server's side (VAPID, encryption, a local push service decrypting) is apps/server/test/push.test.ts.
 */
import { expect, test } from '@playwright/test';
import { registerPerson, signIn } from './wallet-fixtures.ts';

test('the service worker shows a push and its click opens the screen it names', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const person = await registerPerson(request);
  await signIn(page, person, '/');
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return registration?.active?.scriptURL.endsWith('/sw.js') && navigator.serviceWorker.controller !== null;
  });

  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r: { scopeURL: string }) => r.scopeURL === `${baseURL}/`);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const message = {
    title: 'Поступление',
    body: 'Вам поступил перевод 250,00 ₽. Отправитель: Мария С.',
    url: '/history',
    tag: 'push-test',
  };
  const id = await registrationId;
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        url: (n.data as { url?: string } | null)?.url,
      })),
    );
  // Chromium drops a push sent right after the DevTools session attached to the worker: sent again
  // until one shows (one tag, so a second one replaces the first).
  await expect
    .poll(async () => {
      if ((await shown()).length === 0)
        await cdp.send('ServiceWorker.deliverPushMessage', {
          origin: baseURL!,
          registrationId: id,
          data: JSON.stringify(message),
        });
      return shown();
    })
    .toEqual([{ title: message.title, body: message.body, url: '/history' }]);

  // A click on it (dispatched in the worker, as the browser does) brings the tab to the history.
  const worker = context.serviceWorkers().find((sw) => sw.url().endsWith('/sw.js'))!;
  await worker.evaluate(async () => {
    const scope = self as unknown as {
      registration: ServiceWorkerRegistration;
      dispatchEvent(event: Event): boolean;
    };
    const [notification] = await scope.registration.getNotifications();
    const Click = (globalThis as unknown as { NotificationEvent: new (type: string, init: object) => Event })
      .NotificationEvent;
    scope.dispatchEvent(new Click('notificationclick', { notification }));
  });
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('Settings: which pushes come; money out cannot be switched off', async ({ page, request }) => {
  const person = await registerPerson(request);
  await signIn(page, person, '/settings');
  const panel = page.getByTestId('alerts-panel');
  await expect(panel.getByRole('heading', { name: 'Уведомления' })).toBeVisible();
  const moneyOut = panel.getByRole('checkbox', { name: 'Списания' });
  await expect(moneyOut).toBeChecked();
  await expect(moneyOut).toBeDisabled();
  const moneyIn = panel.getByRole('checkbox', { name: 'Поступления' });
  await expect(moneyIn).toBeChecked();
  // The switch follows the cache, which React Query updates just after the click's event: a click, then
  // the state awaited (Playwright's uncheck() would judge it inside that moment).
  await moneyIn.click();
  await expect(moneyIn).not.toBeChecked();
  await page.reload();
  await expect(
    page.getByTestId('alerts-panel').getByRole('checkbox', { name: 'Поступления' }),
  ).not.toBeChecked();
  const settings = await request.get('/v2/wallet/notification/settings', {
    headers: { Authorization: `Token ${person.token}` },
  });
  expect(await settings.json()).toMatchObject({
    push_money_in: false,
    push_money_out: true,
    push_security: true,
  });
});
