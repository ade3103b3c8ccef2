/**
 * GET /v2/wallet/transaction?ordering=-created_at in cursor pages, filtered by account and date
 * range. The key holds the filter, so a new range starts from the first page.
 */
import type { AnswerOf } from '@e-wallet/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callOk } from './client.ts';

export type Transaction = AnswerOf<'transactions'>['results'][number];

export interface TransactionFilter {
  account?: string;
  date_from?: string;
  date_to?: string;
  /** Page size, 1 to 100 (the server's default is 20). */
  limit?: number;
  /** Only money spent in this category (docs/decisions.md section 22). */
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
