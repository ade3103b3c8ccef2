/** GET /v2/wallet/account/:id: one account of the user; another user's id answers 404 like a missing one. */
// The zod-free module: importing the contract's root would ship its schemas with this page.
import { ID_PATTERN } from '@e-wallet/contract/ids';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../shared/api/api-error.ts';
import { callOk } from '../../../shared/api/client.ts';

export const accountQuery = (id: string) =>
  queryOptions({
    queryKey: ['account', id],
    queryFn: ({ signal }) => {
      // Not an id at all: answer 'not found' without asking the server.
      if (!ID_PATTERN.test(id)) throw new ApiError(404, null, 'Not an account id');
      return callOk('account', { signal, params: { id } });
    },
  });

export function useAccount(id: string) {
  return useQuery(accountQuery(id));
}

/** Whether an error means 'no such account of yours' (404, or 400 for a malformed id). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
