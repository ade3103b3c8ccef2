/**
 * The language a browser chose before; when it chose none, the browser's own first language
 * preselects English, anything else Russian (the default). Read without i18next, for the first script.
 */
import type { Language } from '@e-wallet/contract/languages';

export function storedLanguage(storageKey: string): Language {
  try {
    const stored = localStorage.getItem(storageKey);
    if (stored === 'en' || stored === 'ru') return stored;
  } catch {
    // Storage refused (private mode): the browser's language decides.
  }
  return browserLanguage();
}

function browserLanguage(): Language {
  if (typeof navigator === 'undefined') return 'ru';
  const first = navigator.languages?.[0] ?? navigator.language ?? '';
  return first.toLowerCase().startsWith('en') ? 'en' : 'ru';
}
