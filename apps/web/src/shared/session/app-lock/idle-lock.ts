/**
 * The inactivity lock of docs/decisions/security-rules.md#security-baselines, free of React and the DOM:
 * after 15 minutes without activity the app is locked. The deadline (a timestamp) lives in localStorage, so a
 * reload, a tab that slept past it, and every tab of the same session share it: activity in one
 * tab keeps the others open, a deadline in the past locks at start, and a PIN accepted in one tab
 * opens the others. Activity after the deadline never revives it: only `unlock()` (a PIN the
 * server accepted) sets a new one.
 *
 * The stored record carries a tag of the session's token (a short non-cryptographic hash, not the
 * token), so a deadline left by an earlier session never locks a fresh sign-in.
 */

export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const LOCK_STORAGE_KEY = 'e-wallet-lock';
/** Activity writes the storage at most this often (pointer moves come in bursts). */
const WRITE_EVERY_MS = 1000;

export interface LockStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface IdleLockOptions {
  /** Identifies the session the deadline belongs to (see `sessionTag`). */
  tag: string;
  onChange: (locked: boolean) => void;
  storage?: LockStorage | null;
  timeoutMs?: number;
  now?: () => number;
}

export interface IdleLock {
  readonly locked: boolean;
  /** Something the person did: pushes the deadline on, or locks if it has already passed. */
  activity(): void;
  /** The server accepted the PIN: a new deadline, here and in the other tabs. */
  unlock(): void;
  /** Another tab wrote the record (the `storage` event): follow its deadline. */
  sync(): void;
  stop(): void;
}

interface StoredLock {
  tag: string;
  deadline: number;
}

/** FNV-1a over the token: enough to tell sessions apart, useless for recovering the token. */
export function sessionTag(token: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < token.length; index += 1) {
    hash ^= token.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function defaultStorage(): LockStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function clearStoredLock(storage: LockStorage | null = defaultStorage()): void {
  try {
    storage?.removeItem(LOCK_STORAGE_KEY);
  } catch {
    // No storage (private mode): nothing was kept.
  }
}

export function createIdleLock(options: IdleLockOptions): IdleLock {
  const timeoutMs = options.timeoutMs ?? IDLE_TIMEOUT_MS;
  const now = options.now ?? (() => Date.now());
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  // This tab's own copy: it works without storage and is never older than what this tab wrote.
  let deadline = 0;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let locked = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  function readStored(): number | null {
    try {
      const text = storage?.getItem(LOCK_STORAGE_KEY);
      if (!text) return null;
      const value = JSON.parse(text) as Partial<StoredLock>;
      if (value.tag !== options.tag || typeof value.deadline !== 'number') return null;
      return Number.isFinite(value.deadline) ? value.deadline : null;
    } catch {
      return null;
    }
  }

  function write(at: number) {
    lastWrite = now();
    try {
      storage?.setItem(
        LOCK_STORAGE_KEY,
        JSON.stringify({ tag: options.tag, deadline: at } satisfies StoredLock),
      );
    } catch {
      // Full or unavailable storage: this tab still keeps its own deadline.
    }
  }

  function setLocked(next: boolean) {
    if (locked === next) return;
    locked = next;
    options.onChange(next);
  }

  function schedule() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped || locked) return;
    timer = setTimeout(check, Math.max(0, deadline - now()));
  }

  /** The deadline as every tab sees it: the later of this tab's and the stored one. */
  function check() {
    if (stopped) return;
    const stored = readStored();
    if (stored !== null && stored > deadline) deadline = stored;
    if (now() >= deadline) setLocked(true);
    schedule();
  }

  function start() {
    const stored = readStored();
    if (stored === null) {
      deadline = now() + timeoutMs;
      write(deadline);
    } else {
      deadline = stored;
    }
    check();
  }

  const lock: IdleLock = {
    get locked() {
      return locked;
    },
    activity() {
      if (stopped || locked) return;
      check();
      if (locked) return;
      deadline = now() + timeoutMs;
      if (now() - lastWrite >= WRITE_EVERY_MS) write(deadline);
      schedule();
    },
    unlock() {
      if (stopped) return;
      deadline = now() + timeoutMs;
      write(deadline);
      setLocked(false);
      schedule();
    },
    sync() {
      if (stopped) return;
      const stored = readStored();
      if (stored === null) return;
      if (locked && stored > now()) {
        // Opened in another tab with the PIN.
        deadline = stored;
        setLocked(false);
        schedule();
        return;
      }
      check();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
  start();
  return lock;
}
