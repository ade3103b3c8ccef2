/**
 * The wallet: accounts, history, statistics and notifications: their calls, as calls.ts assembles them into the one
 * table. Their shapes are in schemas/ (schemas.ts gathers them).
 */
import type { CallDef } from './calls.ts';
import { plainTextCall } from './plain-text.ts';
import * as s from './schemas.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts). */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);

export const walletCalls = {
  wallet: def({
    method: 'GET',
    path: '/v2/wallet',
    access: 'token',
    tag: 'wallet',
    summary: 'The wallet with its accounts (results[0].accounts)',
    answer: s.WalletList,
  }),
  walletList: def({
    method: 'GET',
    path: '/v2/wallet/',
    access: 'token',
    tag: 'wallet',
    summary: 'The wallet list (same answer as /v2/wallet)',
    answer: s.WalletList,
  }),
  openAccount: def({
    method: 'POST',
    path: '/v2/wallet/account',
    access: 'token',
    tag: 'wallet',
    summary: 'Open an account in RUB, USD, EUR or IDR (one per currency)',
    body: s.OpenAccountRequest,
    answer: s.Account,
  }),
  account: def({
    method: 'GET',
    path: '/v2/wallet/account/:id',
    access: 'token',
    tag: 'wallet',
    summary: 'One account of the user',
    params: s.IdParams,
    answer: s.Account,
  }),
  transactions: def({
    method: 'GET',
    path: '/v2/wallet/transaction',
    access: 'token',
    tag: 'wallet',
    summary: 'Transactions, newest first by default, with cursor pagination and filters',
    query: s.TransactionQuery,
    answer: s.TransactionPage,
  }),
  transaction: def({
    method: 'GET',
    path: '/v2/wallet/transaction/:id',
    access: 'token',
    tag: 'wallet',
    summary: 'One operation as the history lists it (a held one by either of its ids), for its detail',
    params: s.IdParams,
    answer: s.Transaction,
  }),
  stat: def({
    method: 'GET',
    path: '/v2/wallet/stat',
    access: 'token',
    tag: 'wallet',
    summary: 'Spending and income statistics by transaction type over a date range',
    query: s.StatQuery,
    answer: s.StatAnswer,
  }),
  notifications: def({
    method: 'GET',
    path: '/v2/wallet/user/notification',
    access: 'token',
    tag: 'notifications',
    summary: 'Notifications, newest first',
    query: s.NotificationQuery,
    answer: s.NotificationPage,
  }),
  readNotifications: def({
    method: 'POST',
    path: '/v2/wallet/user/notification/read',
    access: 'token',
    tag: 'notifications',
    summary: 'Mark the given notifications (or all) as read',
    body: s.NotificationReadRequest,
    answer: s.StatusMessage,
  }),
} as const satisfies Record<string, CallDef>;
