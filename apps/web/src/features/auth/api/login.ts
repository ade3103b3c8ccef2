/** POST /v2/wallet/auth/login: Sign in with phone and SMS code; a success carries the auth token. */
import type { BodyOf } from '@e-wallet/contract';
import { callApi } from '../../../shared/api/client.ts';

export function login(body: BodyOf<'login'>) {
  return callApi('login', { body });
}
