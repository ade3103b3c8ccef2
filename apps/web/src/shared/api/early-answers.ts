/**
 * Answers of the home screen's data calls that src/preload-route.ts started before the app ran
 * (HOME_CALLS). `callApi` takes one instead of fetching when the same path is asked for with the
 * same token and language in the page's first seconds; each answer is taken once, so every later
 * call (a refetch, another screen) goes to the network as before. Any call that may change data
 * (not a GET) drops those not taken yet, so none is read after a change the user made.
 */
import type { EarlyAnswer } from '../../preload-route.ts';

/** After this, since the page began, an answer started early counts as stale and is not used. */
export const EARLY_ANSWER_MS = 10_000;

export function takeEarlyAnswer(
  path: string,
  token: string | null,
  language: string,
): Promise<Response> | null {
  const answers: EarlyAnswer[] | undefined =
    typeof window === 'undefined' ? undefined : window.eWalletEarlyAnswers;
  if (!answers?.length || !token) return null;
  if (performance.now() > EARLY_ANSWER_MS) {
    answers.length = 0;
    return null;
  }
  const index = answers.findIndex(
    (answer) => answer.path === path && answer.token === token && answer.language === language,
  );
  if (index < 0) return null;
  return answers.splice(index, 1)[0]!.response;
}

/** Drops the answers not taken yet (shared/api/client.ts, before any call that may change data). */
export function dropEarlyAnswers(): void {
  if (typeof window !== 'undefined') window.eWalletEarlyAnswers = undefined;
}
