/** GET/PUT/DELETE /v2/wallet/trusted-person and its acceptance (docs/decisions.md section 21). */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions } from '@tanstack/react-query';
import { isErrorAnswer } from '../../../shared/api/api-error.ts';
import { callApi, callOk } from '../../../shared/api/client.ts';

export const trustedPersonQuery = queryOptions({
  queryKey: ['trusted-person'],
  queryFn: ({ signal }) => callOk('trustedPerson', { signal }),
});

async function words<T>(answer: Promise<T>) {
  const result = await answer;
  if (isErrorAnswer(result)) throw new Error(result.message);
  return result;
}

export const setTrustedPerson = (body: BodyOf<'trustedPersonSet'>) =>
  words(callApi('trustedPersonSet', { body }));
export const removeTrustedPerson = () => words(callApi('trustedPersonRemove'));
export const acceptTrustedPerson = (id: string) => words(callApi('trustedPersonAccept', { body: { id } }));
