/** GET /v2/wallet/close (what closing would do) and POST /v2/wallet/close (docs/decisions.md section 18). */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callApi, callOk } from '../../../shared/api/client.ts';

export const closePreviewQuery = queryOptions({
  queryKey: ['close-preview'],
  queryFn: ({ signal }) => callOk('closePreview', { signal }),
  staleTime: 0,
});

export function useClosePreview(enabled: boolean) {
  return useQuery({ ...closePreviewQuery, enabled });
}

/** Closes the wallet; the server's words on a refusal. */
export async function closeWallet(body: BodyOf<'closeWallet'>) {
  const answer = await callApi('closeWallet', { body });
  if (isErrorAnswer(answer)) throw new Error(answer.message);
  return answer;
}
