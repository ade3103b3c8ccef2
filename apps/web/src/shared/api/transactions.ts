/**
 * GET /v2/wallet/transaction?ordering=-created_at in cursor pages, filtered by account and date
 * range. The key holds the filter, so a new range starts from the first page.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callOk } from './client.ts';

export type Transaction = AnswerOf<'transactions'>['results'][number];

export interface TransactionFilter {
  account?: string;
  date_from?: string;
  date_to?: string;
  /** Page size, 1 to 100 (the server's default is 20). */
  limit?: number;
  /**
   * Only money spent in this category
   * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
   */
  category?: string;
}

export const transactionsQuery = (filter: TransactionFilter) =>
  infiniteQueryOptions({
    queryKey: ['transactions', filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ signal, pageParam }) =>
      callOk('transactions', {
        signal,
        query: {
          ordering: '-created_at',
          account: filter.account,
          date_from: filter.date_from,
          date_to: filter.date_to,
          limit: filter.limit ? String(filter.limit) : undefined,
          category: filter.category,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (page) => page.next ?? undefined,
  });

export function useTransactions(filter: TransactionFilter) {
  return useInfiniteQuery(transactionsQuery(filter));
}

/**
 * One operation for its detail (GET /v2/wallet/transaction/:id): a held one by either of its ids.
 * Under the 'transactions' key, so whatever refreshes the history refreshes it too.
 */
export function useTransaction(id: string) {
  return useQuery({
    queryKey: ['transactions', 'one', id],
    queryFn: ({ signal }) => callOk('transaction', { signal, params: { id } }),
  });
}
