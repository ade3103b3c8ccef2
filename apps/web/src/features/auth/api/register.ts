/** POST /v2/wallet/auth/register: Start registration; the answer is read for status and message (HTTP 200–499 arrive as answers). */
import type { BodyOf } from '@e-wallet/contract';
import { callApi } from '../../../shared/api/client.ts';

export function register(body: BodyOf<'register'>) {
  return callApi('register', { body });
}
