/**
 * Passkeys in the browser (@simplewebauthn/browser): add one in Settings, and confirm the
 * signed-in person with one where the app would ask for the PIN (the inactivity lock). The
 * server makes every ceremony's options and checks every answer; the browser only relays them.
 */

import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isErrorAnswer } from '../api/api-error.ts';
import { callApi } from '../api/client.ts';

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** The person cancelled, or the device refused: not an error worth the server's words. */
export class PasskeyCancelled extends Error {}

async function relay<T>(ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony();
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
      throw new PasskeyCancelled(error.message);
    throw error;
  }
}

export function usePasskeys() {
  return useQuery({
    queryKey: ['passkeys'],
    queryFn: async () => {
      const answer = await callApi('passkeys');
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer.results;
    },
  });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string | undefined) => {
      const options = await callApi('passkeyRegisterOptions');
      if (isErrorAnswer(options)) throw new Error(options.message);
      const response = await relay(() => startRegistration({ optionsJSON: options.options as never }));
      const answer = await callApi('passkeyRegister', {
        body: { challenge_id: options.challenge_id, response: response as never, ...(name ? { name } : {}) },
      });
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer.message ?? '';
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['passkeys'] }),
  });
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const answer = await callApi('deletePasskey', { params: { id } });
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer.message ?? '';
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['passkeys'] }),
  });
}

/** Confirms the signed-in person with one of their passkeys; the server decides. */
export async function confirmWithPasskey(): Promise<void> {
  const options = await callApi('passkeyConfirmOptions');
  if (isErrorAnswer(options)) throw new Error(options.message);
  const response = await relay(() => startAuthentication({ optionsJSON: options.options as never }));
  const answer = await callApi('passkeyConfirm', {
    body: { challenge_id: options.challenge_id, response: response as never },
  });
  if (isErrorAnswer(answer)) throw new Error(answer.message);
}
