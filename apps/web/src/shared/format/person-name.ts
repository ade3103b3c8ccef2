/**
 * A person's name as the screen's language reads it: in Latin letters on an English screen, as the
 * bank card writes it (docs/decisions/language-and-format.md#names-on-english-screens). Apart from
 * person.ts so that the transliteration stays out of the sign-in page's first script.
 */
import { nameIn } from '@e-wallet/contract/names';
import { useTranslation } from 'react-i18next';

export function useName(): (name: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'ru';
  return (name) => nameIn(name, language);
}
