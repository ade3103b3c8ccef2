/**
 * i18next with the Russian and English texts bundled. Russian is active by default (spec
 * section 9); `setLanguage` switches and remembers the choice for the settings screen to use.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { appLockEn, appLockRu } from './app-lock-texts.ts';
import { documentsEn, documentsRu } from './documents-texts.ts';
import { en } from './en.ts';
import { moneyFlowEn, moneyFlowRu } from './money-flow-texts.ts';
import { paymentEn, paymentRu } from './payment-texts.ts';
import { ru } from './ru.ts';

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'e-wallet-language';

export const resources = {
  ru: {
    translation: {
      ...ru,
      ...moneyFlowRu,
      ...paymentRu,
      ...appLockRu,
      ...documentsRu,
    },
  },
  en: {
    translation: {
      ...en,
      ...moneyFlowEn,
      ...paymentEn,
      ...appLockEn,
      ...documentsEn,
    },
  },
} as const;

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return value === 'en' ? 'en' : 'ru';
  } catch {
    return 'ru';
  }
}

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'ru',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'ru';
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this visit.
  }
  await i18n.changeLanguage(language);
}

export default i18n;
