/**
 * A phone input's value from an E.164 number (a template's, a recent recipient's, a repeated
 * transfer's): the country whose dial code and mask fit it, the default rows first (+7 is Russia's
 * before Kazakhstan's in either language).
 */
import { countries } from './countries.ts';
import type { Country, Language } from './country.ts';
import { defaultCountries } from './default-country.ts';
import { digitsOnly, maskCapacity } from './masks.ts';

export function phoneValueOf(
  e164: string,
  language: Language,
): { country: Country; maskIndex: number; digits: string } | null {
  const number = digitsOnly(e164);
  for (const country of [...defaultCountries(language), ...countries(language)]) {
    const dial = digitsOnly(country.code);
    if (!number.startsWith(dial)) continue;
    const digits = number.slice(dial.length);
    const maskIndex = country.mask.findIndex((mask) => maskCapacity(mask) === digits.length);
    if (maskIndex >= 0) return { country, maskIndex, digits };
  }
  return null;
}
