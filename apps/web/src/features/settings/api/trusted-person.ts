/**
 * GET/PUT/DELETE /v2/wallet/trusted-person, its acceptance and stepping down
 * (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
 */
import type { BodyOf } from '@e-wallet/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export const trustedPersonQuery = queryOptions({
  queryKey: ['trusted-person'],
  queryFn: ({ signal }) => callOk('trustedPerson', { signal }),
});

/** A change of my trusted person, or my answer as someone's: accepting, or stepping down. */
export type TrustedChange =
  | { kind: 'set'; body: BodyOf<'trustedPersonSet'> }
  | { kind: 'remove' }
  | { kind: 'accept'; id: string }
  | { kind: 'leave'; id: string };

function change(c: TrustedChange) {
  switch (c.kind) {
    case 'set':
      return callOk('trustedPersonSet', { body: c.body });
    case 'remove':
      return callOk('trustedPersonRemove');
    case 'accept':
      return callOk('trustedPersonAccept', { body: { id: c.id } });
    case 'leave':
      return callOk('trustedPersonLeave', { body: { id: c.id } });
  }
}

export function useTrustedChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey: ['trusted-person'] }),
  });
}
