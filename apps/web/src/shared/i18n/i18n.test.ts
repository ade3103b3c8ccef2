import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import i18n, { setLanguage } from './i18n.ts';
import { ru } from './ru.ts';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]!).sort();
}

describe('translations', () => {
  const ruKeys = keysOf(ru).sort();
  const enKeys = keysOf(en).sort();

  it('have the same keys in Russian and English', () => {
    expect(ruKeys.filter((key) => !enKeys.includes(key))).toEqual([]);
    expect(enKeys.filter((key) => !ruKeys.includes(key))).toEqual([]);
  });

  it('have no empty text and the same placeholders in both languages', () => {
    const lookup = (tree: unknown, key: string) =>
      key.split('.').reduce((node, part) => (node as Record<string, unknown>)[part], tree) as string;
    for (const key of ruKeys) {
      expect(lookup(ru, key).trim(), key).not.toBe('');
      expect(lookup(en, key).trim(), key).not.toBe('');
      expect(placeholders(lookup(en, key)), key).toEqual(placeholders(lookup(ru, key)));
    }
  });

  it('start in Russian and switch to English and back, remembering the choice', async () => {
    expect(i18n.language).toBe('ru');
    expect(i18n.t('auth.login.title')).toBe('Вход');
    await setLanguage('en');
    expect(i18n.t('auth.login.title')).toBe('Sign in');
    expect(localStorage.getItem('e-wallet-language')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    await setLanguage('ru');
    expect(i18n.t('auth.login.title')).toBe('Вход');
  });
});
