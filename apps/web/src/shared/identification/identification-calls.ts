/**
 * The identification calls (docs/product.md#calls): both accept answers below 500 and return
 * the body, so a refusal (VERIFICATION_ACTIVE, VERIFICATION_NOT_NEEDED) comes back as
 * `{status: 'error', code, message}` for the section to show.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isErrorAnswer } from '../api/api-error.ts';
import { callApi } from '../api/client.ts';

/** Where the browser goes to verify; relative URLs (the sandbox page) stay on this origin. */
export type UpgradeOutcome = { kind: 'redirect'; url: string } | { kind: 'refused'; message: string };

export async function startUpgrade(): Promise<UpgradeOutcome> {
  const answer = await callApi('upgradeIdentification');
  if (isErrorAnswer(answer)) return { kind: 'refused', message: answer.message };
  return { kind: 'redirect', url: answer.verification_url };
}

/** Leaving the app for the provider's page and reloading: one object, so tests can watch both. */
export const browserNavigation = {
  assign: (url: string) => window.location.assign(url),
  reload: () => window.location.reload(),
};

/** Starts a verification and sends the browser to the provider's page when it gave one. */
export function useStartUpgrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startUpgrade,
    onSuccess: async (outcome) => {
      if (outcome.kind === 'redirect' && outcome.url) {
        browserNavigation.assign(outcome.url);
        return;
      }
      // Refused: what the server knows (say, a verification already under way) is worth showing.
      await queryClient.invalidateQueries({ queryKey: ['auth-info'] });
    },
  });
}

/**
 * Re-checks the verification with the provider, then reloads the page
 * (docs/product.md#states-and-transitions).
 */
export function useRefreshStatus() {
  return useMutation({
    mutationFn: async () => {
      const answer = await callApi('identificationStatus');
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer;
    },
    onSuccess: () => browserNavigation.reload(),
  });
}
