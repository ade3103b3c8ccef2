import { describe, expect, it } from 'vitest';
import { nameIn } from './names.ts';

describe('a person’s name in a language', () => {
  it('reads Latin in English by ICAO Doc 9303, as a bank card does', () => {
    expect(nameIn('Ольга Кузнецова', 'en')).toBe('Olga Kuznetsova');
    expect(nameIn('Юлия Щербакова', 'en')).toBe('Iuliia Shcherbakova');
    expect(nameIn('Пётр Жуков', 'en')).toBe('Petr Zhukov');
    expect(nameIn('Алексей', 'en')).toBe('Aleksei');
  });

  it('keeps a masked name’s shape: a first name and an initial with its point', () => {
    expect(nameIn('Ольга К.', 'en')).toBe('Olga K.');
    expect(nameIn('Иван П.', 'en')).toBe('Ivan P.');
    expect(nameIn('Мария', 'en')).toBe('Mariia');
  });

  it('stays as written in Russian, and a Latin name stays in either language', () => {
    expect(nameIn('Ольга К.', 'ru')).toBe('Ольга К.');
    expect(nameIn('Emily C.', 'en')).toBe('Emily C.');
    expect(nameIn('Emily C.', 'ru')).toBe('Emily C.');
    expect(nameIn('', 'en')).toBe('');
  });
});
