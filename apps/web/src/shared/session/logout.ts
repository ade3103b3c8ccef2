/**
 * POST /v2/wallet/auth/logout revokes the token on the server; the device then signs out whatever
 * the answer (an unreachable server must not keep a person signed in here).
 */
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../api/client.ts';
import { signOutLocally } from './sign-out.ts';

export async function logout(): Promise<void> {
  try {
    await callApi('logout');
  } catch {
    // Already invalid or offline: the local sign-out below is what the person asked for.
  } finally {
    signOutLocally();
  }
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
