import './shared/ui/theme.css';
import './shared/i18n/i18n.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { currentRouteHasLazyLayout, preloadCurrentRoute } from './app/route-modules.ts';
import { startVersionCheck } from './app/version-check.ts';
import { applyStoredTheme } from './shared/theme/theme.ts';

// The chosen theme before anything renders (docs/decisions/account.md#a-persons-account).
applyStoredTheme();

// docs/product.md#states-and-transitions: the server's version decides whether this build may run; the page
// renders meanwhile.
startVersionCheck();

/** The first render waits this long at most for the signed-in layout and page (then they suspend as usual). */
const ROUTE_WAIT_MS = 1500;

/**
 * The first render is a transition: React renders the whole first screen in slices of a few
 * milliseconds, yielding to the browser between them, instead of in one long task that keeps the
 * page from answering input on a slow phone (Lighthouse's total blocking time).
 */
function render() {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

// The current route's modules are usually in already (src/preload-route.ts fetched them early).
// In the signed-in area the layout and the page appear together (app/route-modules.ts); the
// sign-in pages' layout is in the main chunk and shows at once.
const routeReady = preloadCurrentRoute();
if (currentRouteHasLazyLayout())
  void Promise.race([routeReady, new Promise<void>((resolve) => setTimeout(resolve, ROUTE_WAIT_MS))]).then(
    render,
  );
else render();
