/**
 * The start-up version check (docs/product.md#states-and-transitions,
 * docs/decisions/placeholders-and-defects.md#defects-are-fixed). The app asks the server for its version with
 * the no-cache headers; when it is the app's own version (`__APP_VERSION__`, 0.0.1) start-up continues and
 * the service worker is registered (once the first screen has settled, so its precaching does not compete
 * with it). When it differs, a newer build has been deployed while this tab ran an older one (often from the
 * service worker's cache): every service worker registration is removed and the page reloads,
 * also when removing fails, so the next load comes from the network. A failed check is logged
 * and the app goes on.
 *
 * The page renders while the check runs (no wait for the network before the first paint); the
 * check runs again whenever the tab becomes visible, so a tab left open picks up a deploy.
 * A reload loop is impossible: the version a tab reloaded for is remembered in sessionStorage,
 * and a second mismatch with the same server version is logged instead of reloading again.
 */

export const RELOAD_MARKER_KEY = 'e-wallet-version-reload';

export type VersionCheckOutcome =
  /** The server runs this build: go on. */
  | 'current'
  /** Another version: registrations removed (or tried), page reloading. */
  | 'reloading'
  /** Still another version after reloading for it once: go on without a service worker. */
  | 'mismatch'
  /** No answer or a malformed one: logged, go on. */
  | 'failed';

export interface VersionCheckEnvironment {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Absent where the browser has no service workers. */
  serviceWorker?: Pick<ServiceWorkerContainer, 'getRegistrations'>;
  reload: () => void;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  now: () => number;
  log: (message: string, error?: unknown) => void;
}

export const NO_CACHE_HEADERS = { 'Cache-Control': 'no-cache', Pragma: 'no-cache', Expires: '0' } as const;

function browserEnvironment(): VersionCheckEnvironment {
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  return {
    fetch: (url, init) => window.fetch(url, init),
    serviceWorker: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    reload: () => window.location.reload(),
    storage,
    now: () => Date.now(),
    log: (message, error) =>
      console.warn(`[version-check] ${message}`, ...(error === undefined ? [] : [error])),
  };
}

async function serverVersion(env: VersionCheckEnvironment): Promise<string> {
  const response = await env.fetch(`/version.json?${env.now()}`, {
    headers: NO_CACHE_HEADERS,
    cache: 'no-store',
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { version?: unknown };
  if (typeof body?.version !== 'string' || body.version === '') throw new Error('no version in the answer');
  return body.version;
}

async function unregisterServiceWorkers(env: VersionCheckEnvironment): Promise<void> {
  if (!env.serviceWorker) return;
  const registrations = await env.serviceWorker.getRegistrations();
  const results = await Promise.allSettled(registrations.map((registration) => registration.unregister()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

export async function checkVersion(
  appVersion: string = __APP_VERSION__,
  env: VersionCheckEnvironment = browserEnvironment(),
): Promise<VersionCheckOutcome> {
  let version: string;
  try {
    version = await serverVersion(env);
  } catch (error) {
    env.log('the version check failed; the app continues', error);
    return 'failed';
  }
  const reloadedFor = safely(() => env.storage?.getItem(RELOAD_MARKER_KEY) ?? null, null);
  if (version === appVersion) {
    if (reloadedFor !== null) safely(() => env.storage?.removeItem(RELOAD_MARKER_KEY), undefined);
    return 'current';
  }
  if (reloadedFor === version) {
    env.log(`the server runs ${version}, this app is ${appVersion} even after a reload; the app continues`);
    return 'mismatch';
  }
  safely(() => env.storage?.setItem(RELOAD_MARKER_KEY, version), undefined);
  try {
    await unregisterServiceWorkers(env);
  } catch (error) {
    env.log('removing the service workers failed; reloading anyway', error);
  }
  env.reload();
  return 'reloading';
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** Registers the app-shell service worker (vite.config.ts, `sw.js`) in a built app. */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch (error) {
    console.warn('[version-check] the service worker was not registered', error);
  }
}

/** How long the page must fetch nothing before the worker precaches, and the longest wait for that. */
const QUIET_MS = 1500;
const QUIET_WAIT_MAX_MS = 10_000;

/**
 * Resolves once the first screen has settled: the page has loaded, then nothing new has been
 * fetched for QUIET_MS (the route's data and any follow-up requests are in; at most
 * QUIET_WAIT_MAX_MS after the load event), then the browser is idle. Installing the worker
 * precaches the whole app shell (about 50 files): while the first screen still loads and renders,
 * that takes network and CPU from it (on a phone the precaching competes with the page's data and
 * its first renders). A browser without PerformanceObserver waits QUIET_WAIT_MAX_MS.
 */
function afterFirstScreen(): Promise<void> {
  return new Promise((resolve) => {
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function')
        window.requestIdleCallback(() => resolve(), { timeout: 2000 });
      else resolve();
    };
    const whenQuiet = () => {
      let observer: PerformanceObserver | undefined;
      let quiet = 0;
      const done = () => {
        clearTimeout(quiet);
        clearTimeout(longest);
        observer?.disconnect();
        whenIdle();
      };
      const longest = window.setTimeout(done, QUIET_WAIT_MAX_MS);
      const restart = () => {
        clearTimeout(quiet);
        quiet = window.setTimeout(done, QUIET_MS);
      };
      try {
        observer = new PerformanceObserver(restart);
        observer.observe({ type: 'resource' });
        restart();
      } catch {
        // No PerformanceObserver: the longest wait decides.
      }
    };
    if (document.readyState === 'complete') whenQuiet();
    else window.addEventListener('load', whenQuiet, { once: true });
  });
}

/**
 * Start-up (src/main.tsx): check the version now and whenever the tab becomes visible again;
 * register the service worker once the server is known to run this build (or cannot be asked),
 * after the first screen has settled.
 */
export function startVersionCheck(): void {
  let registered = false;
  const run = async () => {
    const outcome = await checkVersion();
    if (!registered && (outcome === 'current' || outcome === 'failed')) {
      registered = true;
      await afterFirstScreen();
      await registerServiceWorker();
    }
  };
  void run();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void run();
  });
}
