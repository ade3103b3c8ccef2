/**
 * POST /v2/wallet/auth/pin/change {old_pin, new_pin}: the server checks the old PIN (wrong ones
 * count toward its lockout) and answers PIN_INVALID, PIN_LOCKED or PIN_SAME, shown as sent.
 */
import { useMutation } from '@tanstack/react-query';
import { callOk } from '../../../shared/api/client.ts';

export function useChangePin() {
  return useMutation({
    mutationFn: (pins: { old_pin: string; new_pin: string }) => callOk('changePin', { body: pins }),
  });
}
