import type { NotificationAbout } from './schemas.ts';

/**
 * The app's routes (docs/product.md#screens-and-routes) by name: the app links by name, never by a typed
 * path, and the server's links into the app (a push's click) are made from the same table.
 */
export const ROUTES = {
  Home: '/',
  History: '/history',
  HistoryOperation: '/history/:id',
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
  PayMerchant: '/pay/m/:id',
  /** A merchant's static QR at the till: the payer types the amount. */
  PayShop: '/pay/shop/:id',
  Business: '/business',
  WalletExchange: '/wallet/exchange',
  Savings: '/wallet/savings',
  Budgets: '/wallet/budgets',
  Payment: '/payment',
  Settings: '/settings',
  Support: '/support',
  AuthIn: '/auth',
  LogIn: '/auth/login',
  Register: '/auth/register',
} as const;

export type RouteName = keyof typeof ROUTES;

/** Where tapping a notification leads (the server says what it is about): an operation, or a screen. */
export function aboutPath(about: NotificationAbout): string {
  switch (about.type) {
    case 'operation':
      return about.id ? pathTo('HistoryOperation', { id: about.id }) : pathTo('History');
    case 'holds':
    case 'approvals':
      return pathTo('Holds');
    case 'trusted_person':
      return `${pathTo('Settings')}#trusted-person`;
    case 'requests':
      return pathTo('WalletRequest');
    case 'schedules':
      return pathTo('Schedules');
    case 'savings':
      return pathTo('Savings');
    case 'budgets':
      return pathTo('Budgets');
    case 'support':
      return pathTo('Support');
    case 'wallet':
      return pathTo('Home');
    default:
      return pathTo('Settings');
  }
}

/** The path of a named route with its parameters filled in: pathTo('WalletId', {id}). */
export function pathTo(name: RouteName, params: Record<string, string> = {}): string {
  return ROUTES[name].replace(/:(\w+)/g, (_whole, key: string) => encodeURIComponent(params[key] ?? ''));
}
