/**
 * The first script of index.html (an entry of its own: vite.config.ts `routePreload`). It has the
 * browser fetch the current route's chunks, styles and images at once, while the main chunks (React, the
 * router, i18n) download, instead of after they have run. The build puts a table in index.html's
 * `#route-preload` JSON block: for each route pattern (app/route-plan.ts `routeMatchers`), the
 * files of its first screen signed in and signed out. This adds a preload link for each file of
 * the current address; main.tsx then imports them from the cache (app/route-modules.ts).
 *
 * It imports nothing, so it is one small file that runs as soon as it arrives.
 */

export interface RoutePreloadTable {
  /** File names under /assets/. */
  files: string[];
  /** [pattern, files signed in, files signed out], in matching order; the last pattern is ''. */
  routes: [pattern: string, signedIn: number[], signedOut: number[]][];
}

/** Keep in step with shared/store/session-store.ts (its SESSION_STORAGE_KEY and persisted shape). */
export const SESSION_KEY = 'e-wallet-session';

/** Whether localStorage holds the persisted auth token (zustand's `{state: {authToken}}` record). */
export function hasStoredToken(): boolean {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    const token = raw
      ? (JSON.parse(raw) as { state?: { authToken?: unknown } } | null)?.state?.authToken
      : null;
    return typeof token === 'string' && token !== '';
  } catch {
    return false;
  }
}

/** The files to preload for a path (app/route-plan.ts `normalizedPath` and `modulesFor`). */
export function filesToPreload(table: RoutePreloadTable, pathname: string, signedIn: boolean): string[] {
  const path = pathname.replace(/\/+$/, '').toLowerCase() || '/';
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
} catch {
  // Only a head start: without it the routes load their modules themselves.
}
