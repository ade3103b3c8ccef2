/**
 * The operator printed on receipts, statements and the public receipt page: the `operator` of the
 * brand file the app is built from (apps/web/brands/<BRAND>.json), read once per brand.
 */
import { readFileSync } from 'node:fs';
import type { Language } from '@e-wallet/contract';

type LocalText = Record<Language, string>;

export interface Operator {
  name: string;
  details: string[];
}

const BRANDS = new URL('../../../web/brands/', import.meta.url);
const cache = new Map<string, { name: LocalText; details: LocalText[] }>();

export function operatorOf(brand: string, language: Language): Operator {
  let operator = cache.get(brand);
  if (!operator) {
    const file = JSON.parse(readFileSync(new URL(`${brand}.json`, BRANDS), 'utf8')) as {
      name: string;
      operator?: { name: LocalText; details: LocalText[] };
    };
    operator = file.operator ?? { name: { ru: file.name, en: file.name }, details: [] };
    cache.set(brand, operator);
  }
  return { name: operator.name[language], details: operator.details.map((line) => line[language]) };
}
