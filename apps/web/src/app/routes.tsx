/**
 * Every route of docs/product.md#screens-and-routes with its name (`handle.name`, read with useRouteName()).
 * Pages are lazy (route-modules.ts, which also preloads the current route's at start-up), so the
 * sign-in page loads only what it shows. Declarative routing (BrowserRouter + useRoutes) keeps the
 * sign-in page's JavaScript small: the data router alone would be another 18 KiB gzip.
 */
import { type ComponentProps, lazy, useState } from 'react';
import { matchRoutes, Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { RouteNameContext } from '../shared/route-name.ts';
import type { RouteName } from '../shared/routes.ts';
import { AuthLayout } from './auth-layout/auth-layout.tsx';
import { type RouteModule, routeModules } from './route-modules.ts';

/**
 * A route's lazy component. When its module is already loaded (the start-up preload of
 * route-modules.ts, or an earlier visit) it renders at once instead of suspending; which of the
 * two an instance uses is fixed when it mounts, so it never remounts.
 */
function routeComponent(module: RouteModule) {
  const Lazy = lazy(() => module.load());
  return function RouteComponent(props: ComponentProps<typeof Lazy>) {
    const [Component] = useState(() => module.loaded ?? Lazy);
    return <Component {...props} />;
  };
}

const HomeLayout = routeComponent(routeModules.HomeLayout);
const HomePage = routeComponent(routeModules.HomePage);
const HistoryPage = routeComponent(routeModules.HistoryPage);
const OperationPage = routeComponent(routeModules.OperationPage);
const WalletPage = routeComponent(routeModules.WalletPage);
const WalletIdPage = routeComponent(routeModules.WalletIdPage);
const SettingsPage = routeComponent(routeModules.SettingsPage);
const SupportPage = routeComponent(routeModules.SupportPage);
const TopUpPage = routeComponent(routeModules.TopUpPage);
const TopUpResultPage = routeComponent(routeModules.TopUpResultPage);
const WithdrawalPage = routeComponent(routeModules.WithdrawalPage);
const TransferPage = routeComponent(routeModules.TransferPage);
const ExchangePage = routeComponent(routeModules.ExchangePage);
const SavingsPage = routeComponent(routeModules.SavingsPage);
const BudgetsPage = routeComponent(routeModules.BudgetsPage);
const PaymentPage = routeComponent(routeModules.PaymentPage);
const RequestPage = routeComponent(routeModules.RequestPage);
const PayRequestPage = routeComponent(routeModules.PayRequestPage);
const PayMerchantPage = routeComponent(routeModules.PayMerchantPage);
const BusinessPage = routeComponent(routeModules.BusinessPage);
const SchedulesPage = routeComponent(routeModules.SchedulesPage);
const HoldsPage = routeComponent(routeModules.HoldsPage);
const AuthInPage = routeComponent(routeModules.AuthInPage);
const LoginPage = routeComponent(routeModules.LoginPage);
const RegisterPage = routeComponent(routeModules.RegisterPage);

export interface RouteHandle {
  name: RouteName;
}

const named = (name: RouteName, route: RouteObject): RouteObject =>
  ({ ...route, handle: { name } satisfies RouteHandle }) as RouteObject;

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <HomeLayout />,
    children: [
      named('Home', { index: true, element: <HomePage /> }),
      named('History', { path: 'history', element: <HistoryPage /> }),
      named('HistoryOperation', { path: 'history/:id', element: <OperationPage /> }),
      named('Wallet', { path: 'wallet', element: <WalletPage /> }),
      named('WalletId', { path: 'wallet/:id', element: <WalletIdPage /> }),
      named('WalletPaymentsFinish', { path: 'wallet/payments/finish', element: <TopUpResultPage /> }),
      named('WalletTopUp', { path: 'wallet/topup', element: <TopUpPage /> }),
      named('WalletWithdrawal', { path: 'wallet/withdrawal', element: <WithdrawalPage /> }),
      named('WalletSave', { path: 'wallet/save', element: <TransferPage /> }),
      named('WalletExchange', { path: 'wallet/exchange', element: <ExchangePage /> }),
      named('Savings', { path: 'wallet/savings', element: <SavingsPage /> }),
      named('Budgets', { path: 'wallet/budgets', element: <BudgetsPage /> }),
      named('Payment', { path: 'payment', element: <PaymentPage /> }),
      named('WalletRequest', { path: 'wallet/request', element: <RequestPage /> }),
      named('Schedules', { path: 'wallet/schedules', element: <SchedulesPage /> }),
      named('Holds', { path: 'wallet/holds', element: <HoldsPage /> }),
      named('PayRequest', { path: 'pay/r/:token', element: <PayRequestPage /> }),
      named('PayMerchant', { path: 'pay/m/:id', element: <PayMerchantPage /> }),
      named('PayShop', { path: 'pay/shop/:id', element: <PayMerchantPage /> }),
      named('Business', { path: 'business', element: <BusinessPage /> }),
      named('Settings', { path: 'settings', element: <SettingsPage /> }),
      named('Support', { path: 'support', element: <SupportPage /> }),
    ],
  },
  {
    path: '/auth',
    element: <AuthLayout />,
    children: [
      named('AuthIn', { index: true, element: <AuthInPage /> }),
      named('LogIn', { path: 'login', element: <LoginPage /> }),
      named('Register', { path: 'register', element: <RegisterPage /> }),
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

/** The name of the deepest named route matching a path, or null. */
export function routeNameOf(pathname: string): RouteName | null {
  const matches = matchRoutes(routes, pathname) ?? [];
  const handle = matches.at(-1)?.route.handle as RouteHandle | undefined;
  return handle?.name ?? null;
}

export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes);
  return <RouteNameContext value={routeNameOf(location.pathname)}>{element}</RouteNameContext>;
}
