/**
 * Signing out on this device: the token is forgotten, whatever else registered a cleanup (the
 * signed-in area's query cache) drops the user's data, and the browser goes to the landing (AuthIn).
 * The app registers how to navigate, so this module stays free of the router.
 */
import { useSessionStore } from '../store/session-store.ts';

let goToAuth: () => void = () => {
  window.location.assign('/auth');
};
const cleanups = new Set<() => void>();

export function setSignedOutNavigation(navigate: () => void): void {
  goToAuth = navigate;
}

/** Registers work to do on every sign-out (clearing caches of the user's data); answers an unregister. */
export function onSignOut(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export function signOutLocally(): void {
  useSessionStore.getState().clearAuth();
  for (const cleanup of cleanups) cleanup();
  goToAuth();
}
