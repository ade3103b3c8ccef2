/**
 * The full country list of the phone input (docs/product.md#entities-and-their-fields): about 240 countries
 * and territories with name, dial code with +, ISO code, flag and masks. Loaded with the country picker.
 */

import { COUNTRY_ROWS } from './countries.generated.ts';
import { type Country, countryName, type Language } from './country.ts';
import { flagUrl } from './flags.ts';

const cache = new Map<Language, Country[]>();

/** Every country and territory, sorted by name in the language. */
export function countries(language: Language): Country[] {
  let list = cache.get(language);
  if (!list) {
    const collator = new Intl.Collator(language);
    list = COUNTRY_ROWS.map(([iso, code, mask, flag]) => ({
      iso,
      code,
      mask,
      name: countryName(iso, language),
      flag: flag === false ? undefined : flagUrl(iso),
    })).sort((a, b) => collator.compare(a.name, b.name));
    cache.set(language, list);
  }
  return list;
}

export function findCountry(iso: string, language: Language): Country | undefined {
  return countries(language).find((country) => country.iso === iso);
}

/** Case-insensitive substring match on the name (docs/product.md#validation-rules). */
export function searchCountries(query: string, language: Language): Country[] {
  const needle = query.trim().toLocaleLowerCase(language);
  const list = countries(language);
  if (!needle) return list;
  return list.filter((country) => country.name.toLocaleLowerCase(language).includes(needle));
}
