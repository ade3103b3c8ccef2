/**
 * A phone input's value from an E.164 number (a template's, a recent recipient's, a repeated
 * transfer's): the country whose dial code and mask fit it, the default rows first (+7 is Russia's
 * before Kazakhstan's in either language). The default rows answer at once; the full list of about
 * 240 countries is fetched only for a number outside them, so no screen loads it before it is needed.
 */
import type { Country, Language } from './country.ts';
import { defaultCountries } from './default-country.ts';
import { digitsOnly, maskCapacity } from './masks.ts';

export interface PhoneMatch {
  country: Country;
  maskIndex: number;
  digits: string;
}

function matchIn(e164: string, list: Country[]): PhoneMatch | null {
  const number = digitsOnly(e164);
  for (const country of list) {
    const dial = digitsOnly(country.code);
    if (!number.startsWith(dial)) continue;
    const digits = number.slice(dial.length);
    const maskIndex = country.mask.findIndex((mask) => maskCapacity(mask) === digits.length);
    if (maskIndex >= 0) return { country, maskIndex, digits };
  }
  return null;
}

/** The match among the default rows only, or null. */
export function defaultPhoneValueOf(e164: string, language: Language): PhoneMatch | null {
  return matchIn(e164, defaultCountries(language));
}

export async function phoneValueOf(e164: string, language: Language): Promise<PhoneMatch | null> {
  const found = defaultPhoneValueOf(e164, language);
  if (found) return found;
  const { countries } = await import('./countries.ts');
  return matchIn(e164, countries(language));
}
