import { describe, expect, it } from 'vitest';
import { lockScroll, SCROLL_LOCK_CLASS } from './use-scroll-lock.ts';

describe('scroll lock', () => {
  it('marks <body> while any lock is held, and releasing twice changes nothing', () => {
    const first = lockScroll();
    expect(document.body.classList.contains(SCROLL_LOCK_CLASS)).toBe(true);
    const second = lockScroll();
    first();
    first();
    expect(document.body.classList.contains(SCROLL_LOCK_CLASS)).toBe(true);
    second();
    expect(document.body.classList.contains(SCROLL_LOCK_CLASS)).toBe(false);
  });
});
