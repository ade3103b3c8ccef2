/*
 * Web Push in the app's service worker (imported by the generated sw.js, vite.config.ts): shows what
 * the server pushed (money in and out, a new sign-in, a PIN lock;
 * docs/decisions/live-wallet.md#the-live-wallet) and opens the screen it names, in a tab of the app when one
 * is open. Only paths of this origin open.
 */
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'E-Wallet';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/icons/e-wallet-192.png',
      data: { url: typeof message.url === 'string' ? message.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/', self.location.origin);
  const url = target.origin === self.location.origin ? target.href : `${self.location.origin}/`;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      // An open tab of the app goes to the screen; one the worker does not control gets a new window.
      return open
        .navigate(url)
        .then((navigated) => (navigated || open).focus())
        .catch(() => self.clients.openWindow(url));
    }),
  );
});
