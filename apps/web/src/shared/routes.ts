/** The routes of docs/product.md section 2, by name. Features link by name, never by a typed path. */
export const ROUTES = {
  Home: '/',
  History: '/history',
  Wallet: '/wallet',
  WalletId: '/wallet/:id',
  WalletPaymentsFinish: '/wallet/payments/finish',
  WalletTopUp: '/wallet/topup',
  WalletWithdrawal: '/wallet/withdrawal',
  WalletSave: '/wallet/save',
  WalletRequest: '/wallet/request',
  Schedules: '/wallet/schedules',
  Holds: '/wallet/holds',
  PayRequest: '/pay/r/:token',
  WalletExchange: '/wallet/exchange',
  Savings: '/wallet/savings',
  Payment: '/payment',
  Settings: '/settings',
  Support: '/support',
  AuthIn: '/auth',
  LogIn: '/auth/login',
  Register: '/auth/register',
} as const;

export type RouteName = keyof typeof ROUTES;

/** The path of a named route with its parameters filled in: pathTo('WalletId', {id}). */
export function pathTo(name: RouteName, params: Record<string, string> = {}): string {
  return ROUTES[name].replace(/:(\w+)/g, (_whole, key: string) => encodeURIComponent(params[key] ?? ''));
}
