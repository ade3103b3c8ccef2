/**
 * The TanStack Query client both front ends start from. A 4xx will answer the same again, so it is
 * not tried again; a network failure or a 5xx gets two more tries. Errors carry the HTTP `status`.
 */
import { QueryClient } from '@tanstack/react-query';

function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export function createQueryClient(options: { staleTime: number }): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => !isClientError(error) && failures < 2,
        refetchOnWindowFocus: false,
        staleTime: options.staleTime,
      },
      mutations: { retry: false },
    },
  });
}
