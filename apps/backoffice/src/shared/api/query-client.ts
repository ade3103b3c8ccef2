/** TanStack Query for the back office: a 4xx is not tried again; the cache is emptied on sign-out. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError, session } from './client.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});

session.subscribe(() => {
  if (!session.token()) queryClient.clear();
});
