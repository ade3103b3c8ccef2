/**
 * What the passkey tests share: a server of their own at http://localhost:<port> with that as its
 * PUBLIC_URL (WebAuthn needs a domain, not an IP address), and Chromium's virtual authenticator
 * through the DevTools protocol (WebAuthn.enable, WebAuthn.addVirtualAuthenticator).
 */
import { test as base, type Page } from '@playwright/test';
import { defaultBuild, freePort, type RunningServer, startServer } from './brand-server.ts';

export const passkeyTest = base.extend<{ ownServer: RunningServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  ownServer: async ({}, use) => {
    const port = await freePort();
    const server = await startServer({
      webDist: defaultBuild(),
      port,
      env: { PUBLIC_URL: `http://localhost:${port}` },
    });
    await use(server);
    await server.stop();
  },
  baseURL: async ({ ownServer }, use) => use(`http://localhost:${ownServer.port}`),
});

export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}
