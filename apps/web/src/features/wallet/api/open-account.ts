/** POST /v2/wallet/account: opens an account in RUB, USD, EUR or IDR; the wallet list then updates. */
import type { AccountCurrency } from '@e-wallet/contract/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export function useOpenAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (currency: AccountCurrency) => callOk('openAccount', { body: { currency_code: currency } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wallet'] }),
  });
}
