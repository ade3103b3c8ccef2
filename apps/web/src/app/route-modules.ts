/**
 * The lazily loaded modules of the routes (routes.tsx), and loading the ones the current address
 * shows at start-up. Without that the page's code arrives in a waterfall: the main chunks, then
 * (once React has rendered) the layout's chunk, then the page's, then the page's data.
 *
 * `src/preload-route.ts`, a tiny first script of index.html, has the browser fetch the current
 * route's chunks and styles while the main chunks download; `main.tsx` calls
 * `preloadCurrentRoute()` (which then finds them in the cache) and, in the signed-in area, renders
 * once the layout and the page are in: the first paint shows them together, with no spinner first
 * and no layout shift when the page arrives (on a phone the profile panel under the page would
 * jump down). A module already loaded renders without suspending (routes.tsx `routeComponent`).
 *
 * The build (vite.config.ts `routePreload`) reads the loaders below to find each module's chunk:
 * keep them one `Name: routeModule(() => import('…'))` each.
 */
import type { ComponentType } from 'react';
import { getAuthToken } from '../shared/store/session-store.ts';
import { modulesFor, type RouteModuleName } from './route-plan.ts';

// biome-ignore lint/suspicious/noExplicitAny: route components take their own props
type AnyComponent = ComponentType<any>;

export interface RouteModule {
  /** Loads the module once (a failed load may be tried again); answers it as React.lazy wants. */
  load(): Promise<{ default: AnyComponent }>;
  /** The component once loaded, else null. */
  readonly loaded: AnyComponent | null;
}

function routeModule(importer: () => Promise<{ default: AnyComponent }>): RouteModule {
  let loading: Promise<{ default: AnyComponent }> | null = null;
  let loaded: AnyComponent | null = null;
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module.default;
          return module;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    get loaded() {
      return loaded;
    },
  };
}

export const routeModules = {
  HomeLayout: routeModule(() => import('./home-layout/home-layout.tsx')),
  HomePage: routeModule(() => import('./home.tsx')),
  HistoryPage: routeModule(() => import('../features/history/pages/history-page.tsx')),
  OperationPage: routeModule(() => import('../features/history/pages/operation-page.tsx')),
  WalletPage: routeModule(() => import('../features/wallet/pages/wallet-page.tsx')),
  WalletIdPage: routeModule(() => import('../features/wallet/pages/wallet-id-page.tsx')),
  SettingsPage: routeModule(() => import('../features/settings/pages/settings-page.tsx')),
  SupportPage: routeModule(() => import('../features/support/pages/support-page.tsx')),
  TopUpPage: routeModule(() => import('../features/topup/pages/top-up-page.tsx')),
  TopUpResultPage: routeModule(() => import('../features/topup/pages/top-up-result-page.tsx')),
  WithdrawalPage: routeModule(() => import('../features/withdrawal/pages/withdrawal-page.tsx')),
  TransferPage: routeModule(() => import('../features/transfer/pages/transfer-page.tsx')),
  RequestPage: routeModule(() => import('../features/requests/pages/request-page.tsx')),
  PayRequestPage: routeModule(() => import('../features/requests/pages/pay-request-page.tsx')),
  PayMerchantPage: routeModule(() => import('../features/merchants/pages/pay-merchant-page.tsx')),
  BusinessPage: routeModule(() => import('../features/merchants/pages/business-page.tsx')),
  SchedulesPage: routeModule(() => import('../features/requests/pages/schedules-page.tsx')),
  HoldsPage: routeModule(() => import('../features/holds/pages/holds-page.tsx')),
  ExchangePage: routeModule(() => import('../features/exchange/pages/exchange-page.tsx')),
  SavingsPage: routeModule(() => import('../features/savings/pages/savings-page.tsx')),
  BudgetsPage: routeModule(() => import('../features/savings/pages/budgets-page.tsx')),
  PaymentPage: routeModule(() => import('../features/payment/pages/payment-page.tsx')),
  AuthInPage: routeModule(() => import('../features/auth/pages/auth-in-page.tsx')),
  LoginPage: routeModule(() => import('../features/auth/pages/login-page.tsx')),
  RegisterPage: routeModule(() => import('../features/auth/pages/register-page.tsx')),
} satisfies Record<RouteModuleName, RouteModule>;

let started: Promise<void> | null = null;

/**
 * Loads the modules of the current address's first screen (once per page load); answers when they
 * are in. Never rejects: a module that fails to load is loaded again (and its failure shown) by
 * the route itself.
 */
export function preloadCurrentRoute(): Promise<void> {
  started ??= Promise.all(
    modulesFor(window.location.pathname, !!getAuthToken()).map((name) =>
      routeModules[name].load().catch(() => undefined),
    ),
  ).then(() => undefined);
  return started;
}

/** Whether the first screen at the current address is in the signed-in area (its layout is lazy). */
export function currentRouteHasLazyLayout(): boolean {
  return modulesFor(window.location.pathname, !!getAuthToken()).includes('HomeLayout');
}
