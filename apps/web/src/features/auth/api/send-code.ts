/** POST /v2/wallet/auth/send_code: Send a new SMS code: to sign in, or again on the register code step (with the real phone). */
import type { BodyOf } from '@e-wallet/contract';
import { callApi } from '../../../shared/api/client.ts';

export function sendCode(body: BodyOf<'sendCode'>) {
  return callApi('sendCode', { body });
}
