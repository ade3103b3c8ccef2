/**
 * GET /v2/wallet: the user's accounts (results[0].accounts). Shared, because the home carousel,
 * history, the accounts page and the money screens (top-up, withdrawal, transfer) all show them.
 */
import type { AnswerOf } from '@e-wallet/contract';
import type { AccountCurrency } from '@e-wallet/contract/money';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSessionStore } from '../store/session-store.ts';
import { callOk } from './client.ts';

export type WalletAccount = AnswerOf<'wallet'>['results'][number]['accounts'][number];

export const walletQuery = (token: string | null) =>
  queryOptions({
    queryKey: ['wallet'],
    queryFn: ({ signal }) => callOk('wallet', { signal }),
    enabled: !!token,
    select: (answer): WalletAccount[] => answer.results[0]?.accounts ?? [],
  });

/** The accounts of the signed-in user, in the server's order (RUB first: it is opened at registration). */
export function useAccounts() {
  const token = useSessionStore((state) => state.authToken);
  return useQuery(walletQuery(token));
}

/** The currencies the signed-in user has accounts in (empty while loading). */
export function useAccountCurrencies(): AccountCurrency[] {
  const accounts = useAccounts();
  return (accounts.data ?? []).map((account) => account.currency_code as AccountCurrency);
}
