/**
 * The default phone country (docs/product.md#business-constants-and-limits): Russia +7 in Russian, the United
 * Kingdom +44 in
 * English. Kept apart from the full list so the sign-in page loads the list only when the picker
 * opens; phone.test.ts checks these rows against the generated table.
 */
import gbFlag from '../../../../../node_modules/country-flag-icons/3x2/GB.svg?url';
import ruFlag from '../../../../../node_modules/country-flag-icons/3x2/RU.svg?url';
import { type Country, countryName, type Language } from './country.ts';

export const DEFAULT_COUNTRIES = {
  ru: { iso: 'RU', code: '+7', mask: ['(###)###-##-##'], flag: ruFlag },
  en: { iso: 'GB', code: '+44', mask: ['### ### ###', '#### ######'], flag: gbFlag },
} as const;

export function defaultCountry(language: Language): Country {
  const row = DEFAULT_COUNTRIES[language];
  return { ...row, mask: [...row.mask], name: countryName(row.iso, language) };
}

/** Both default rows, the language's first, named in the language: +7 reads as Russia in either language. */
export function defaultCountries(language: Language): Country[] {
  const other: Language = language === 'ru' ? 'en' : 'ru';
  const row = DEFAULT_COUNTRIES[other];
  return [defaultCountry(language), { ...row, mask: [...row.mask], name: countryName(row.iso, language) }];
}
