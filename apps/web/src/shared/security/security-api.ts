/**
 * Self-protection calls: POST /v2/wallet/freeze, /unfreeze {confirm_code, pin}, send_code to one's
 * own phone (the unfreeze code) and /transaction/:id/report {reason} ('Это не я', which also freezes).
 * Each success asks the auth info again, whose `is_frozen` drives the frozen state across the app.
 */
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { callOk } from '../api/client.ts';

const refresh = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['auth-info'] }),
    queryClient.invalidateQueries({ queryKey: ['notifications'] }),
    queryClient.invalidateQueries({ queryKey: ['sessions'] }),
    // A freeze suspends every passkey: the list and the lock's offer read it again.
    queryClient.invalidateQueries({ queryKey: ['passkeys'] }),
  ]);

export function useFreeze() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callOk('freeze', { body: {} }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useUnfreeze() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { confirm_code: string; pin: string }) => callOk('unfreeze', { body }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      callOk('transactionReport', { params: { id }, body: { reason } }),
    onSuccess: () => refresh(queryClient),
  });
}
