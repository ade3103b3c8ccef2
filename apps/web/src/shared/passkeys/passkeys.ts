/**
 * Passkeys in the browser (@simplewebauthn/browser): add one in Settings, and confirm the
 * signed-in person with one where the app would ask for the PIN (the inactivity lock). The
 * server makes every ceremony's options and checks every answer; the browser only relays them.
 */

import type { ConfirmationFields } from '@e-wallet/contract';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

const passkeysQuery = queryOptions({
  queryKey: ['passkeys'],
  queryFn: async () => {
    const answer = await callApi('passkeys');
    if (isErrorAnswer(answer)) throw new Error(answer.message);
    return answer.results;
  },
});

export function usePasskeys() {
  return useQuery(passkeysQuery);
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    // The PIN first: a session alone never adds a way to confirm money (the server checks it).
    mutationFn: async ({ pin, name }: { pin: string; name?: string }) => {
      const options = await callApi('passkeyRegisterOptions', { body: { pin } });
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

/** Puts a passkey a freeze suspended back in use: the PIN first (the server checks it). */
export function useKeepPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, pin }: { id: string; pin: string }) => {
      const answer = await callApi('passkeyKeep', { params: { id }, body: { pin } });
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer.message ?? '';
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['passkeys'] }),
  });
}

/** A passkey's answer to a fresh confirm challenge: what the app lock and a money operation send. */
export type PasskeyAnswer = NonNullable<ConfirmationFields['passkey']>;

/** Asks the device for a passkey's answer to a new challenge of the server's. */
export async function passkeyAnswer(): Promise<PasskeyAnswer> {
  const options = await callApi('passkeyConfirmOptions');
  if (isErrorAnswer(options)) throw new Error(options.message);
  const response = await relay(() => startAuthentication({ optionsJSON: options.options as never }));
  return { challenge_id: options.challenge_id, response: response as never };
}

/**
 * Signs in with a discoverable passkey, no SMS (docs/decisions/account.md#a-persons-account): the device
 * offers the person's own passkey for this site; answers the new auth token.
 */
export async function signInWithPasskey(): Promise<string> {
  const options = await callApi('passkeyLoginOptions');
  if (isErrorAnswer(options)) throw new Error(options.message);
  const response = await relay(() => startAuthentication({ optionsJSON: options.options as never }));
  const answer = await callApi('passkeyLogin', {
    body: { challenge_id: options.challenge_id, response: response as never },
  });
  if (isErrorAnswer(answer)) throw new Error(answer.message);
  return answer.auth_token;
}

/** Confirms the signed-in person with one of their passkeys; the server decides. */
export async function confirmWithPasskey(): Promise<void> {
  const answer = await callApi('passkeyConfirm', { body: await passkeyAnswer() });
  if (isErrorAnswer(answer)) throw new Error(answer.message);
}

/** True when this person has a passkey and this browser can use one: the second way beside the PIN. */
export function useCanUsePasskey(): boolean {
  const supported = passkeysSupported();
  const passkeys = useQuery({ ...passkeysQuery, enabled: supported });
  // A passkey a freeze suspended confirms nothing until it is kept.
  return supported && (passkeys.data?.some((key) => key.suspended_at === null) ?? false);
}
