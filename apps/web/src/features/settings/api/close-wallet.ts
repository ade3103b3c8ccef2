/**
 * GET /v2/wallet/close (what closing would do) and POST /v2/wallet/close
 * (docs/decisions/account.md#a-persons-account).
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';
import { keepClosedWallet } from '../../../shared/session/closed-wallet.ts';
import { signOutLocally } from '../../../shared/session/sign-out.ts';

export const closePreviewQuery = queryOptions({
  queryKey: ['close-preview'],
  queryFn: ({ signal }) => callOk('closePreview', { signal }),
  staleTime: 0,
});

export function useClosePreview(enabled: boolean) {
  return useQuery({ ...closePreviewQuery, enabled });
}

/** Closes the wallet, then signs out here onto the page saying where the money went; a refusal is the server's words. */
export function useCloseWallet() {
  return useMutation({
    mutationFn: (body: BodyOf<'closeWallet'>) => callOk('closeWallet', { body }),
    onSuccess: (answer) => {
      keepClosedWallet(answer);
      signOutLocally();
    },
  });
}
