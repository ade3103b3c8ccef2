/** TanStack Query for the back office: the shared client's rules; the cache is emptied on sign-out. */
import { createQueryClient } from '@e-wallet/web-kit/query-client';
import { session } from './client.ts';

export const queryClient = createQueryClient({ staleTime: 10_000 });

session.subscribe(() => {
  if (!session.token()) queryClient.clear();
});
