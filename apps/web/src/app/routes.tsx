/**
 * Every route of wallet-spec.md section 2 with its name (`handle.name`, read with useRouteName()).
 * Pages are lazy, so the sign-in page loads only what it shows. Signed-in pages other than Home
 * are placeholders until their features land: replace `placeholder('Name')` with the feature's
 * lazy page. Declarative routing (BrowserRouter + useRoutes) keeps the sign-in page's JavaScript
 * small: the data router alone would be another 18 KiB gzip.
 */
import { lazy } from 'react';
import { matchRoutes, Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { RouteNameContext } from '../shared/route-name.ts';
import type { RouteName } from '../shared/routes.ts';
import { AuthLayout } from './auth-layout/auth-layout.tsx';

const HomeLayout = lazy(() => import('./home-layout/home-layout.tsx'));
const HomePage = lazy(() => import('../features/wallet/pages/home-page.tsx'));
const HistoryPage = lazy(() => import('../features/history/pages/history-page.tsx'));
const WalletPage = lazy(() => import('../features/wallet/pages/wallet-page.tsx'));
const WalletIdPage = lazy(() => import('../features/wallet/pages/wallet-id-page.tsx'));
const SettingsPage = lazy(() => import('../features/settings/pages/settings-page.tsx'));
const TopUpPage = lazy(() => import('../features/topup/pages/top-up-page.tsx'));
const TopUpResultPage = lazy(() => import('../features/topup/pages/top-up-result-page.tsx'));
const WithdrawalPage = lazy(() => import('../features/withdrawal/pages/withdrawal-page.tsx'));
const TransferPage = lazy(() => import('../features/transfer/pages/transfer-page.tsx'));
const PaymentPage = lazy(() => import('../features/payment/pages/payment-page.tsx'));
const PlaceholderPage = lazy(() => import('./pages/placeholder-page.tsx'));
const AuthInPage = lazy(() => import('../features/auth/pages/auth-in-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/pages/login-page.tsx'));
const RegisterPage = lazy(() => import('../features/auth/pages/register-page.tsx'));

export interface RouteHandle {
  name: RouteName;
}

const named = (name: RouteName, route: RouteObject): RouteObject =>
  ({ ...route, handle: { name } satisfies RouteHandle }) as RouteObject;

const placeholder = (name: RouteName) => <PlaceholderPage name={name} />;

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <HomeLayout />,
    children: [
      named('Home', { index: true, element: <HomePage /> }),
      named('History', { path: 'history', element: <HistoryPage /> }),
      named('Wallet', { path: 'wallet', element: <WalletPage /> }),
      named('WalletId', { path: 'wallet/:id', element: <WalletIdPage /> }),
      named('WalletPaymentsFinish', { path: 'wallet/payments/finish', element: <TopUpResultPage /> }),
      named('WalletTopUp', { path: 'wallet/topup', element: <TopUpPage /> }),
      named('WalletWithdrawal', { path: 'wallet/withdrawal', element: <WithdrawalPage /> }),
      named('WalletSave', { path: 'wallet/save', element: <TransferPage /> }),
      named('Payment', { path: 'payment', element: <PaymentPage /> }),
      named('Settings', { path: 'settings', element: <SettingsPage /> }),
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
