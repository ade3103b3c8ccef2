/** The hooks every screen reads through: the signed-in operator, a paged list, an action. */
import type { OperatorRole, OpsCallName } from '@e-wallet/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { type CallInput, opsCall, type Page, session } from './client.ts';

export interface Me {
  id: string;
  email: string;
  role: OperatorRole;
}

/** The signed-in operator of this tab, or null; asked again whenever the token changes. */
export function useMe() {
  const token = useSyncExternalStore(session.subscribe, session.token);
  return useQuery({
    queryKey: ['me', token],
    queryFn: () => (token ? opsCall<Me>('me') : null),
    staleTime: 60_000,
  });
}

/** A list of the API, page after page (`next` is the following page's cursor). */
export function usePagedList<T>(name: OpsCallName, query: Record<string, string | undefined> = {}) {
  const list = useInfiniteQuery({
    queryKey: [name, query],
    queryFn: ({ pageParam }) => opsCall<Page<T>>(name, { query: { ...query, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  return { ...list, rows: list.data?.pages.flatMap((page) => page.results) ?? null };
}

/** An action; when it succeeds, every cached read is refreshed (a decision changes several lists). */
export function useAction<T = unknown>(name: OpsCallName) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput) => opsCall<T>(name, input),
    onSuccess: () => client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'me' }),
  });
}
