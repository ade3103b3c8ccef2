/**
 * A country of the phone input (docs/product.md#entities-and-their-fields) and its name in the active
 * language.
 */

export interface Country {
  iso: string;
  /** Dial code with the plus: '+7'. */
  code: string;
  name: string;
  /** Flag image URL of our own origin. */
  flag: string | undefined;
  /** One or several masks; '#' is a digit. */
  mask: readonly string[];
}

export type Language = 'ru' | 'en';

const displayNames = new Map<Language, Intl.DisplayNames | null>();

function namesIn(language: Language): Intl.DisplayNames | null {
  if (!displayNames.has(language)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
    } catch {
      names = null;
    }
    displayNames.set(language, names);
  }
  return displayNames.get(language) ?? null;
}

export function countryName(iso: string, language: Language): string {
  try {
    return namesIn(language)?.of(iso) ?? iso;
  } catch {
    return iso;
  }
}
