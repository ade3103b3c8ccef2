/**
 * GET /v2/wallet/terms (no token): the current terms, tariffs and memo, and the operator. Read on
 * the auth pages, which have no query cache, so the answer is kept here per language; and
 * POST /v2/wallet/terms/accept for a signed-in person after a new version
 * (docs/decisions/account.md#a-persons-account).
 */
import type { AnswerOf } from '@e-wallet/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callOk } from '../api/client.ts';

export type Terms = AnswerOf<'terms'>;

const answers = new Map<string, Promise<Terms>>();

function fetchTerms(language: string): Promise<Terms> {
  let answer = answers.get(language);
  if (!answer) {
    answer = callOk('terms');
    // A failure is not kept: the next screen asks again.
    answer.catch(() => answers.delete(language));
    answers.set(language, answer);
  }
  return answer;
}

export function useTerms(): { terms: Terms | null; failed: boolean } {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const [state, setState] = useState<{ terms: Terms | null; failed: boolean }>({
    terms: null,
    failed: false,
  });
  useEffect(() => {
    let live = true;
    fetchTerms(language).then(
      (terms) => live && setState({ terms, failed: false }),
      () => live && setState({ terms: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [language]);
  return state;
}

export function acceptTerms(version: string) {
  return callOk('acceptTerms', { body: { terms_version: version } });
}
