/** GET /v2/wallet/stat: money by transaction type over a range, for one account or one currency. */
import type { AnswerOf } from '@e-wallet/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOk } from './client.ts';

/** Money by type (the call's default grouping). */
export type Stat = Extract<AnswerOf<'stat'>, { total_in: string }>;
/**
 * Money spent by category (`group_by=category`,
 * docs/decisions/managing-money.md#managing-money-categories-budgets-goals).
 */
export type CategoryStat = Extract<AnswerOf<'stat'>, { group_by: 'category' }>;

export interface StatFilter {
  account?: string;
  date_from?: string;
  date_to?: string;
}

export const statQuery = (filter: StatFilter) =>
  queryOptions({
    queryKey: ['stat', filter],
    queryFn: async ({ signal }) => (await callOk('stat', { signal, query: filter })) as Stat,
    placeholderData: keepPreviousData,
  });

export const categoryStatQuery = (filter: StatFilter) =>
  queryOptions({
    queryKey: ['stat', 'category', filter],
    queryFn: async ({ signal }) =>
      (await callOk('stat', { signal, query: { ...filter, group_by: 'category' } })) as CategoryStat,
    placeholderData: keepPreviousData,
  });

export function useStat(filter: StatFilter) {
  return useQuery(statQuery(filter));
}
