/** POST /v2/wallet/auth/register/set/pin: Set the four-digit PIN right after registration (needs the token from the confirm step). */
import type { BodyOf } from '@e-wallet/contract';
import { callApi } from '../../../shared/api/client.ts';

export function setPin(body: BodyOf<'setPin'>) {
  return callApi('setPin', { body });
}
