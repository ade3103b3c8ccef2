/**
 * Active sessions (docs/decisions/api.md#the-api, new calls under /v2/wallet/auth/sessions): the list,
 * signing out one session, and signing out every other device. Either change refreshes the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export const sessionsQuery = queryOptions({
  queryKey: ['sessions'],
  queryFn: ({ signal }) => callOk('sessions', { signal }),
  select: (page) => page.results,
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callOk('endSession', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callOk('endOtherSessions'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}
