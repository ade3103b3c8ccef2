/**
 * i18next as both front ends run it: Russian by default, English complete, the choice kept in the
 * browser under the app's own key and mirrored to `<html lang>`. Each app brings its resources.
 */
import { LANGUAGES, type Language } from '@e-wallet/contract/languages';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storedLanguage } from './language.ts';

export { LANGUAGES, type Language };

export interface Languages {
  i18n: typeof i18n;
  currentLanguage(): Language;
  /** Switches and remembers the choice (for this visit only when storage is refused). */
  setLanguage(language: Language): Promise<void>;
}

export function startI18n(options: { resources: Resource; storageKey: string }): Languages {
  i18n.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
  });
  void i18n.use(initReactI18next).init({
    resources: options.resources,
    lng: storedLanguage(options.storageKey),
    fallbackLng: 'ru',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
  return {
    i18n,
    currentLanguage: () => (i18n.language === 'en' ? 'en' : 'ru'),
    async setLanguage(language) {
      try {
        localStorage.setItem(options.storageKey, language);
      } catch {
        // Storage refused (private mode): the choice lasts for this visit.
      }
      await i18n.changeLanguage(language);
    },
  };
}
