/** The language a browser chose before (Russian when none): read without i18next, for the first script. */
import type { Language } from '@e-wallet/contract/errors';

export function storedLanguage(storageKey: string): Language {
  try {
    return localStorage.getItem(storageKey) === 'en' ? 'en' : 'ru';
  } catch {
    return 'ru';
  }
}
