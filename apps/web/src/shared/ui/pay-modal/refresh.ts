import type { QueryClient } from '@tanstack/react-query';

/** After money moved: balances, operations, statistics, notifications, limits and the pre-PIN checks are asked again. */
export function refreshAfterMoney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    ['wallet', 'account', 'transactions', 'stat', 'notifications', 'auth-info', 'money-check'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key] }),
    ),
  );
}
