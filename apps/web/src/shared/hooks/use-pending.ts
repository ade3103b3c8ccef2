import { useState } from 'react';

/**
 * Runs an async action and tells whether it is still running, to disable its button meanwhile.
 * (The auth pages use this instead of TanStack Query mutations, which would double the JavaScript
 * of the sign-in page; server state of the signed-in area uses TanStack Query.)
 */
export function usePending<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  async function run(...args: A): Promise<R> {
    setPending(true);
    try {
      return await action(...args);
    } finally {
      setPending(false);
    }
  }
  return [run, pending] as const;
}
