/**
 * A person's name as a reader of a language reads it: on an English screen a Cyrillic name is
 * written in Latin letters by ICAO Doc 9303, the scheme of Russian passports and bank cards
 * (docs/decisions/language-and-format.md#names-on-english-screens); in Russian it stays as written.
 */
import { ICAO_DOC_9303, translate } from 'iuliia';
import type { Language } from './errors.ts';

const CYRILLIC = /[\u0400-\u04ff]/;

/** 'Ольга К.' reads 'Olga K.' in English and stays 'Ольга К.' in Russian; a Latin name is never touched. */
export function nameIn(name: string, language: Language): string {
  if (language !== 'en' || !CYRILLIC.test(name)) return name;
  return translate(name, ICAO_DOC_9303);
}
