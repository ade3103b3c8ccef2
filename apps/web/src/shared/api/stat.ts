/** GET /v2/wallet/stat: money by transaction type over a range, for one account or one currency. */
import type { AnswerOf } from '@e-wallet/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOk } from './client.ts';

export type Stat = AnswerOf<'stat'>;

export interface StatFilter {
  account?: string;
  date_from?: string;
  date_to?: string;
}

export const statQuery = (filter: StatFilter) =>
  queryOptions({
    queryKey: ['stat', filter],
    queryFn: ({ signal }) => callOk('stat', { signal, query: filter }),
    placeholderData: keepPreviousData,
  });

export function useStat(filter: StatFilter) {
  return useQuery(statQuery(filter));
}
