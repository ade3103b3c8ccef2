/**
 * GET /v2/wallet/auth/info: the signed-in user. Shared, because the header, the profile panel and
 * the money screens all read it (the spec's store keeps it globally).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSessionStore } from '../store/session-store.ts';
import { callOk } from './client.ts';

// The cache is emptied on sign-out, so the key needs no user in it.
export const authInfoQuery = (token: string | null) =>
  queryOptions({
    queryKey: ['auth-info'],
    queryFn: ({ signal }) => callOk('authInfo', { signal }),
    enabled: !!token,
  });

export function useAuthInfo() {
  const token = useSessionStore((state) => state.authToken);
  return useQuery(authInfoQuery(token));
}
