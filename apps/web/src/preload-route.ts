/**
 * The first script of index.html (an entry of its own: vite.config.ts `routePreload`). It has the
 * browser fetch the current route's chunks, styles and images at once, while the main chunks (React, the
 * router, i18n) download, instead of after they have run. The build puts a table in index.html's
 * `#route-preload` JSON block: for each route pattern (app/route-plan.ts `routeMatchers`), the
 * files of its first screen signed in and signed out. This adds a preload link for each file of
 * the current address; main.tsx then imports them from the cache (app/route-modules.ts). On the
 * home screen, signed in, it also starts the screen's data calls (HOME_CALLS).
 *
 * It imports only the stored language's reader (no library), so it is one small file that runs as
 * soon as it arrives.
 */
import { storedLanguage } from '@e-wallet/web-kit/language';

export interface RoutePreloadTable {
  /** File names under /assets/. */
  files: string[];
  /** [pattern, files signed in, files signed out], in matching order; the last pattern is ''. */
  routes: [pattern: string, signedIn: number[], signedOut: number[]][];
}

/** Keep in step with shared/store/session-store.ts (its SESSION_STORAGE_KEY and persisted shape). */
export const SESSION_KEY = 'e-wallet-session';
/** Keep in step with shared/i18n/i18n.ts (LANGUAGE_STORAGE_KEY); this file runs on import, so it is not shared. */
export const LANGUAGE_KEY = 'e-wallet-language';

/** The persisted auth token (zustand's `{state: {authToken}}` record), or null. */
export function storedToken(): string | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    const token = raw
      ? (JSON.parse(raw) as { state?: { authToken?: unknown } } | null)?.state?.authToken
      : null;
    return typeof token === 'string' && token !== '' ? token : null;
  } catch {
    return null;
  }
}

export function hasStoredToken(): boolean {
  return storedToken() !== null;
}

/**
 * The GET calls of the home screen, signed in, as shared/api/client.ts `pathOf` writes them (a test
 * keeps them in step): the signed-in layout's user and notifications, the accounts, the last six
 * transactions, and the panels of held operations, approvals asked of me and requests to me. Started
 * here, their answers arrive while the main chunks download and run, instead of after (they used to
 * leave about 0.45 s after this script), and the first screen renders once with all of them.
 */
export const HOME_CALLS = [
  '/v2/wallet/auth/info',
  '/v2/wallet/user/notification?limit=20',
  '/v2/wallet',
  '/v2/wallet/transaction?ordering=-created_at&limit=6',
  '/v2/wallet/holds',
  '/v2/wallet/approvals',
  '/v2/wallet/request?direction=incoming',
];

/** Answers started before the app ran, taken once by shared/api/early-answers.ts. */
export interface EarlyAnswer {
  path: string;
  token: string;
  language: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    eWalletEarlyAnswers?: EarlyAnswer[];
  }
}

/** A path as the route table matches it: a copy of app/route-plan.ts `normalizedPath` (this script imports nothing). */
function normalizedPath(pathname: string): string {
  return pathname.replace(/\/+$/, '').toLowerCase() || '/';
}

function startHomeCalls(): void {
  const token = storedToken();
  if (!token || normalizedPath(window.location.pathname) !== '/') return;
  const language = storedLanguage(LANGUAGE_KEY);
  window.eWalletEarlyAnswers = HOME_CALLS.map((call) => {
    const response = fetch(call, {
      headers: { Accept: 'application/json', 'Accept-Language': language, Authorization: `Token ${token}` },
      credentials: 'same-origin',
    });
    // Unused or failed answers are simply asked for again by the app.
    response.catch(() => {});
    return { path: call, token, language, response };
  });
}

/** The files to preload for a path (app/route-plan.ts `modulesFor`). */
export function filesToPreload(table: RoutePreloadTable, pathname: string, signedIn: boolean): string[] {
  const path = normalizedPath(pathname);
  const route = table.routes.find(([pattern]) => !pattern || new RegExp(pattern).test(path));
  if (!route) return [];
  return (signedIn ? route[1] : route[2]).map((index) => `/assets/${table.files[index]}`);
}

function addPreloadLinks(): void {
  const block = document.getElementById('route-preload');
  if (!block?.textContent) return;
  const table = JSON.parse(block.textContent) as RoutePreloadTable;
  for (const href of filesToPreload(table, window.location.pathname, hasStoredToken())) {
    const link = document.createElement('link');
    if (href.endsWith('.js')) {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    } else if (href.endsWith('.css')) {
      // Fetched now; the route's own import adds it as a stylesheet (crossorigin, as Vite does) and waits for it.
      link.rel = 'preload';
      link.as = 'style';
      link.crossOrigin = '';
    } else {
      // An image the page shows (an <img>, so no crossorigin): often its largest paint.
      link.rel = 'preload';
      link.as = 'image';
      link.fetchPriority = 'high';
    }
    link.href = href;
    document.head.appendChild(link);
  }
}

try {
  addPreloadLinks();
  startHomeCalls();
} catch {
  // Only a head start: without it the routes load their modules and data themselves.
}
