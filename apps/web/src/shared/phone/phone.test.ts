import { describe, expect, it } from 'vitest';
import { COUNTRY_ROWS } from './countries.generated.ts';
import { countries, findCountry, searchCountries } from './countries.ts';
import { DEFAULT_COUNTRIES, defaultCountry } from './default-country.ts';
import {
  applyMask,
  caretAfterDigits,
  digitsOnly,
  isMaskComplete,
  maskCapacity,
  maskPlaceholder,
  readableMask,
  toE164,
} from './masks.ts';

describe('masks', () => {
  const russia = '(###)###-##-##';

  it('lay digits into the mask and stop after the last digit', () => {
    expect(applyMask('', russia)).toBe('');
    expect(applyMask('9', russia)).toBe('(9');
    expect(applyMask('912', russia)).toBe('(912');
    expect(applyMask('9123', russia)).toBe('(912)3');
    expect(applyMask('9123456789', russia)).toBe('(912)345-67-89');
    expect(applyMask('91234567890000', russia)).toBe('(912)345-67-89');
    expect(applyMask('(912) 345', russia)).toBe('(912)345');
  });

  it('count digits, tell completeness and build E.164', () => {
    expect(maskCapacity(russia)).toBe(10);
    expect(isMaskComplete('912345678', russia)).toBe(false);
    expect(isMaskComplete('9123456789', russia)).toBe(true);
    expect(digitsOnly('+7 (912) 345-67-89')).toBe('79123456789');
    expect(toE164('+7', '(912)345-67-89')).toBe('+79123456789');
    expect(maskPlaceholder(russia)).toBe('(___)___-__-__');
    // As shown: the same grouping as '+7 999 568-62-49' elsewhere in the app.
    expect(readableMask(russia)).toBe('### ###-##-##');
    expect(readableMask('#### ######')).toBe('#### ######');
  });

  it('put the caret after the same number of digits', () => {
    expect(caretAfterDigits('(912)345', 3)).toBe(4);
    expect(caretAfterDigits('(912)345', 4)).toBe(6);
    expect(caretAfterDigits('(912)345', 0)).toBe(1);
  });
});

describe('countries', () => {
  it('hold about 240 countries and territories, each with a dial code, masks and a flag', () => {
    const list = countries('ru');
    expect(list.length).toBeGreaterThanOrEqual(230);
    for (const country of list) {
      expect(country.code).toMatch(/^\+\d{1,4}$/);
      expect(country.iso).toMatch(/^[A-Z]{2}$/);
      expect(country.mask.length).toBeGreaterThan(0);
      for (const mask of country.mask) expect(maskCapacity(mask)).toBeGreaterThan(3);
      expect(country.flag, country.iso).toMatch(/\.svg/);
      expect(country.name).not.toBe('');
    }
    expect(new Set(COUNTRY_ROWS.map((row) => row[0])).size).toBe(COUNTRY_ROWS.length);
  });

  it('default to Russia +7 in Russian and the United Kingdom +44 with 9 digits in English', () => {
    const russia = defaultCountry('ru');
    expect([russia.iso, russia.code, russia.name]).toEqual(['RU', '+7', 'Россия']);
    expect(russia.mask).toEqual(['(###)###-##-##']);
    const uk = defaultCountry('en');
    expect([uk.iso, uk.code, uk.name]).toEqual(['GB', '+44', 'United Kingdom']);
    expect(maskCapacity(uk.mask[0]!)).toBe(9);
    expect(uk.mask.length).toBeGreaterThan(1);
  });

  it('keep the default countries equal to the generated table and its flags', () => {
    for (const language of ['ru', 'en'] as const) {
      const row = DEFAULT_COUNTRIES[language];
      const listed = findCountry(row.iso, language)!;
      expect(defaultCountry(language)).toEqual(listed);
    }
  });

  it('search the name by case-insensitive substring', () => {
    expect(searchCountries('росс', 'ru').map((c) => c.iso)).toEqual(['RU']);
    expect(searchCountries('РОСС', 'ru').map((c) => c.iso)).toEqual(['RU']);
    expect(searchCountries('kingdom', 'en').map((c) => c.iso)).toEqual(['GB']);
    expect(
      searchCountries('гвинея', 'ru')
        .map((c) => c.iso)
        .sort(),
    ).toEqual(expect.arrayContaining(['GN', 'GQ', 'GW', 'PG']));
    expect(searchCountries('zzzz', 'en')).toEqual([]);
    expect(searchCountries('  ', 'en').length).toBe(countries('en').length);
  });

  it('offer several masks where a country has several number lengths', () => {
    expect(findCountry('DE', 'en')!.mask.length).toBeGreaterThan(1);
  });
});
