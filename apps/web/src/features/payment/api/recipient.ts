/** GET /v2/wallet/transfer/recipient?phone=: the masked name of the wallet user a receive QR names. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export const recipientQuery = (phone: string | null) =>
  queryOptions({
    queryKey: ['transfer-recipient', phone],
    queryFn: ({ signal }) => callOk('recipient', { query: { phone: phone ?? '' }, signal }),
    enabled: !!phone,
    retry: false,
    staleTime: 60_000,
  });

export function useRecipient(phone: string | null) {
  return useQuery(recipientQuery(phone));
}
