import { afterEach, describe, expect, it } from 'vitest';
import { keepReturnPath, takeReturnPath } from './return-after-sign-in.ts';

describe('return after sign-in', () => {
  afterEach(() => sessionStorage.clear());

  it('returns once to a request link opened signed out', () => {
    keepReturnPath('/pay/r/q4Zx9-AbCdEfGhIjKlMnOpQrStUvWx');
    expect(takeReturnPath('/')).toBe('/pay/r/q4Zx9-AbCdEfGhIjKlMnOpQrStUvWx');
    expect(takeReturnPath('/')).toBe('/');
  });

  it('keeps no other path, so a link cannot send someone elsewhere after signing in', () => {
    for (const path of ['/settings', '//evil.example/pay/r/aaaaaaaaaaaaaaaaaaaaaaaa', '/pay/r/short'])
      keepReturnPath(path);
    expect(takeReturnPath('/')).toBe('/');
  });
});
