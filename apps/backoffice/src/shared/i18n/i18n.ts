/**
 * i18next for the back office, as the app has it (apps/web/src/shared/i18n/i18n.ts): Russian by
 * default, English complete, the choice kept in the browser and sent as Accept-Language so the API's
 * messages come in it too. The contract's error texts are its `errors` namespace, one owner for both.
 */
import { ERRORS, type ErrorCode, LANGUAGES, type Language } from '@e-wallet/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';
import { ru } from './ru.ts';

export type { Language };

const STORAGE_KEY = 'backoffice.language';

/** The contract's messages in i18next's form: `{field}` becomes `{{field}}`. */
function errorTexts(language: Language): Record<string, string> {
  return Object.fromEntries(
    (Object.entries(ERRORS) as Array<[ErrorCode, Record<Language, string>]>).map(([code, texts]) => [
      code,
      texts[language].replace(/\{(\w+)\}/g, '{{$1}}'),
    ]),
  );
}

function storedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'en' ? 'en' : 'ru';
  } catch {
    return 'ru';
  }
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources: {
    ru: { translation: ru, errors: errorTexts('ru') },
    en: { translation: en, errors: errorTexts('en') },
  },
  lng: storedLanguage(),
  fallbackLng: 'ru',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
document.documentElement.lang = i18n.language;

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'ru';
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage refused: the choice lasts for this visit.
  }
  await i18n.changeLanguage(language);
}

export default i18n;
