/**
 * Locks the page's scroll while something covers it (the notifications dropdown): a class on
 * <body>, removed when unlocked or unmounted. Counted, so two locks do not unlock each other.
 */
import { useEffect } from 'react';

export const SCROLL_LOCK_CLASS = 'scroll-locked';
let locks = 0;

export function lockScroll(): () => void {
  locks += 1;
  document.body.classList.add(SCROLL_LOCK_CLASS);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    locks -= 1;
    if (locks === 0) document.body.classList.remove(SCROLL_LOCK_CLASS);
  };
}

export function useScrollLock(locked: boolean): void {
  useEffect(() => (locked ? lockScroll() : undefined), [locked]);
}
