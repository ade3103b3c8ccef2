/**
 * Which route modules (route-modules.ts) the first screen at an address shows. main.tsx asks it at
 * start-up; the build (vite.config.ts `routePreload`) turns it into the table src/preload-route.ts
 * reads. Only a hint for preloading: a wrong answer costs bytes, never behaviour (the routes load
 * what they need themselves).
 */
import { ROUTES, type RouteName } from '../shared/routes.ts';

/** The lazily loaded modules of routes.tsx (route-modules.ts has their loaders). */
export type RouteModuleName =
  | 'HomeLayout'
  | 'HomePage'
  | 'HistoryPage'
  | 'OperationPage'
  | 'WalletPage'
  | 'WalletIdPage'
  | 'SettingsPage'
  | 'SupportPage'
  | 'TopUpPage'
  | 'TopUpResultPage'
  | 'WithdrawalPage'
  | 'TransferPage'
  | 'RequestPage'
  | 'PayRequestPage'
  | 'PayMerchantPage'
  | 'BusinessPage'
  | 'SchedulesPage'
  | 'HoldsPage'
  | 'ExchangePage'
  | 'SavingsPage'
  | 'BudgetsPage'
  | 'PaymentPage'
  | 'AuthInPage'
  | 'LoginPage'
  | 'RegisterPage';

/** The page module of each route (routes.tsx shows the same ones); signed-in pages sit in HomeLayout. */
const PAGE_OF: Record<RouteName, RouteModuleName> = {
  Home: 'HomePage',
  History: 'HistoryPage',
  HistoryOperation: 'OperationPage',
  Wallet: 'WalletPage',
  WalletId: 'WalletIdPage',
  WalletPaymentsFinish: 'TopUpResultPage',
  WalletTopUp: 'TopUpPage',
  WalletWithdrawal: 'WithdrawalPage',
  WalletSave: 'TransferPage',
  WalletRequest: 'RequestPage',
  Schedules: 'SchedulesPage',
  Holds: 'HoldsPage',
  PayRequest: 'PayRequestPage',
  PayMerchant: 'PayMerchantPage',
  PayShop: 'PayMerchantPage',
  Business: 'BusinessPage',
  WalletExchange: 'ExchangePage',
  Savings: 'SavingsPage',
  Budgets: 'BudgetsPage',
  Payment: 'PaymentPage',
  Settings: 'SettingsPage',
  Support: 'SupportPage',
  AuthIn: 'AuthInPage',
  LogIn: 'LoginPage',
  Register: 'RegisterPage',
};

const AUTH_ROUTES: ReadonlySet<RouteName> = new Set(['AuthIn', 'LogIn', 'Register']);

/** A path as the route patterns are matched: no trailing slash, lower case (react-router ignores case). */
export function normalizedPath(pathname: string): string {
  return pathname.replace(/\/+$/, '').toLowerCase() || '/';
}

/** The route name of a path as react-router matches it (static segments before `:params`), or null. */
export function routeNameOf(pathname: string): RouteName | null {
  const path = normalizedPath(pathname);
  return routeMatchers().find(({ pattern }) => pattern && new RegExp(pattern).test(path))?.name ?? null;
}

/** The modules the first screen of a route shows: what routes.tsx renders there. */
export function modulesOfRoute(name: RouteName, signedIn: boolean): RouteModuleName[] {
  if (AUTH_ROUTES.has(name)) return [PAGE_OF[name]];
  // The signed-in area without a token redirects to the landing.
  return signedIn ? ['HomeLayout', PAGE_OF[name]] : ['AuthInPage'];
}

/** The modules the first screen at `pathname` shows; anything unknown goes to Home (routes.tsx: `*` → `/`). */
export function modulesFor(pathname: string, signedIn: boolean): RouteModuleName[] {
  return modulesOfRoute(routeNameOf(pathname) ?? 'Home', signedIn);
}

/**
 * Each route's pattern as a regular expression over a `normalizedPath`, static routes first, then
 * a catch-all (the empty pattern) for Home. The preload table of the build is made of these.
 */
export function routeMatchers(): { name: RouteName; pattern: string }[] {
  const entries = Object.entries(ROUTES) as [RouteName, string][];
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const regex = (pattern: string) =>
    `^${pattern
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '[^/]+' : escaped(part)))
      .join('')}$`;
  return [
    ...entries
      .filter(([, pattern]) => !pattern.includes(':'))
      .map(([name, pattern]) => ({ name, pattern: regex(pattern) })),
    ...entries
      .filter(([, pattern]) => pattern.includes(':'))
      .map(([name, pattern]) => ({ name, pattern: regex(pattern) })),
    { name: 'Home', pattern: '' },
  ];
}
