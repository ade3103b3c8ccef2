/**
 * A payment request's link opened signed out (`/pay/r/<token>`): the path is kept for this tab while
 * the person signs in or registers, and the sign-in then returns there instead of Home.
 */
const KEY = 'e-wallet-return-to';
/**
 * Only the request links and merchant payments (`/pay/m/<id>`) return: any other kept path could be a way
 * to send someone elsewhere.
 */
const RETURNABLE =
  /^\/pay\/(r\/[A-Za-z0-9_-]{20,64}|m\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function keepReturnPath(path: string): void {
  if (!RETURNABLE.test(path)) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // No storage: the person opens the link again after signing in.
  }
}

/** The path to go to after signing in (once), or `fallback`. */
export function takeReturnPath(fallback: string): string {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return path && RETURNABLE.test(path) ? path : fallback;
  } catch {
    return fallback;
  }
}
