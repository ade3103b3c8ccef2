/**
 * Runs the inactivity lock while a signed-in screen is shown: pointer, keyboard, touch, wheel and
 * scroll count as activity, and so does coming back to the tab (which first locks if the tab slept
 * past the deadline). `enabled` false (a person without a PIN) keeps the clock running but never
 * reports a lock.
 */
import { useEffect, useRef, useState } from 'react';
import { useSessionStore } from '../../store/session-store.ts';
import { onSignOut } from '../sign-out.ts';
import { clearStoredLock, createIdleLock, type IdleLock, LOCK_STORAGE_KEY, sessionTag } from './idle-lock.ts';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

// A later sign-in on this device starts with a fresh deadline.
onSignOut(() => clearStoredLock());

export interface IdleLockState {
  locked: boolean;
  /** The server accepted the PIN. */
  unlock: () => void;
}

export function useIdleLock(): IdleLockState {
  const token = useSessionStore((state) => state.authToken);
  const [locked, setLocked] = useState(false);
  const lock = useRef<IdleLock | null>(null);

  useEffect(() => {
    if (!token) return;
    const idle = createIdleLock({ tag: sessionTag(token), onChange: setLocked });
    lock.current = idle;
    setLocked(idle.locked);
    const onActivity = () => idle.activity();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') idle.activity();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === LOCK_STORAGE_KEY) idle.sync();
    };
    const passive = { capture: true, passive: true } as const;
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, passive);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('focus', onVisibility);
    window.addEventListener('storage', onStorage);
    return () => {
      idle.stop();
      lock.current = null;
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, passive);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('focus', onVisibility);
      window.removeEventListener('storage', onStorage);
    };
  }, [token]);

  return { locked, unlock: () => lock.current?.unlock() };
}
