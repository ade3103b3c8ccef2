import { nameIn } from '@e-wallet/contract/names';
import { useTranslation } from 'react-i18next';

// The contract's phone formatting, shared with the back office.
export { formatPhone } from '@e-wallet/contract/phone';

/** The avatar's initial: the first letter of the first name, upper case. */
export function initialOf(firstName: string): string {
  const letter = [...firstName.trim()][0];
  return letter ? letter.toLocaleUpperCase('ru') : '?';
}

/**
 * A person's name as the screen's language reads it: in Latin letters on an English screen, as the
 * bank card writes it (docs/decisions/language-and-format.md#names-on-english-screens).
 */
export function useName(): (name: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'ru';
  return (name) => nameIn(name, language);
}
