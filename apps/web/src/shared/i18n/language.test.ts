import { storedLanguage } from '@e-wallet/web-kit/language';
import { afterEach, describe, expect, it } from 'vitest';

const KEY = 'language-test';

function browserSays(...languages: string[]) {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
}

describe('the language before any choice', () => {
  afterEach(() => {
    localStorage.removeItem(KEY);
    browserSays('ru-RU', 'ru');
  });

  it('is Russian by default and English when the browser asks English first', () => {
    expect(storedLanguage(KEY)).toBe('ru');
    browserSays('en-GB', 'en');
    expect(storedLanguage(KEY)).toBe('en');
    browserSays('de-DE', 'en');
    expect(storedLanguage(KEY)).toBe('ru');
  });

  it('keeps the choice made on this device over the browser’s language', () => {
    browserSays('en-US');
    localStorage.setItem(KEY, 'ru');
    expect(storedLanguage(KEY)).toBe('ru');
    browserSays('ru-RU');
    localStorage.setItem(KEY, 'en');
    expect(storedLanguage(KEY)).toBe('en');
  });
});
