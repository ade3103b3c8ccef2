/**
 * i18next for the back office, started as the app's (packages/web-kit): Russian by default, English
 * complete, the choice kept in the browser and sent as Accept-Language so the API's
 * messages come in it too. The contract's error texts are its `errors` namespace, one owner for both.
 */
import { ERRORS, type ErrorCode, type Language } from '@e-wallet/contract';
import { startI18n } from '@e-wallet/web-kit/i18n';
import { en } from './en.ts';
import { merchantsEn, merchantsRu } from './merchants.ts';
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

export const { i18n, currentLanguage, setLanguage } = startI18n({
  resources: {
    ru: { translation: { ...ru, ...merchantsRu }, errors: errorTexts('ru') },
    en: { translation: { ...en, ...merchantsEn }, errors: errorTexts('en') },
  },
  storageKey: STORAGE_KEY,
});
export default i18n;
