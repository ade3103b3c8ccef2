/**
 * i18next with the Russian and English texts bundled. Russian is active by default
 * (docs/product.md#business-constants-and-limits); `setLanguage` switches and remembers the choice for the
 * settings screen to use.
 */
import { startI18n } from '@e-wallet/web-kit/i18n';
import { appLockEn, appLockRu } from './app-lock-texts.ts';
import { documentsEn, documentsRu } from './documents-texts.ts';
import { en } from './en.ts';
import { moneyFlowEn, moneyFlowRu } from './money-flow-texts.ts';
import { paymentEn, paymentRu } from './payment-texts.ts';
import { ru } from './ru.ts';

export { LANGUAGES, type Language } from '@e-wallet/web-kit/i18n';
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

export const { i18n, currentLanguage, setLanguage } = startI18n({
  resources,
  storageKey: LANGUAGE_STORAGE_KEY,
});
export default i18n;
