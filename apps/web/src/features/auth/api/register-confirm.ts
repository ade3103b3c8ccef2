/** POST /v2/wallet/auth/register/phone/confirm: Confirm the phone with the SMS code; a success carries the auth token. */
import type { BodyOf } from '@e-wallet/contract';
import { callApi } from '../../../shared/api/client.ts';

export function registerConfirm(body: BodyOf<'registerConfirm'>) {
  return callApi('registerConfirm', { body });
}
