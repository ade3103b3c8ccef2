import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleLock, IDLE_TIMEOUT_MS, type IdleLock, LOCK_STORAGE_KEY, sessionTag } from './idle-lock.ts';

const MINUTE = 60_000;

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('idle lock', () => {
  let storage: ReturnType<typeof memoryStorage>;
  let changes: boolean[];
  const locks: IdleLock[] = [];
  const start = (tag = 'session-a') => {
    const lock = createIdleLock({ tag, storage, onChange: (locked) => changes.push(locked) });
    locks.push(lock);
    return lock;
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-03-01T10:00:00Z') });
    storage = memoryStorage();
    changes = [];
  });
  afterEach(() => {
    for (const lock of locks.splice(0)) lock.stop();
    vi.useRealTimers();
  });

  it('locks at 15:00 without activity, not at 14:59', () => {
    expect(IDLE_TIMEOUT_MS).toBe(15 * MINUTE);
    const lock = start();
    vi.advanceTimersByTime(15 * MINUTE - 1000);
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(999);
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lock.locked).toBe(true);
    expect(changes).toEqual([true]);
  });

  it('activity pushes the deadline 15 minutes past the last activity', () => {
    const lock = start();
    vi.advanceTimersByTime(14 * MINUTE);
    lock.activity();
    vi.advanceTimersByTime(14 * MINUTE);
    expect(lock.locked).toBe(false);
    lock.activity();
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lock.locked).toBe(true);
  });

  it('activity within a second of the last write still counts in this tab', () => {
    const lock = start();
    vi.advanceTimersByTime(10 * MINUTE);
    lock.activity();
    vi.advanceTimersByTime(500);
    lock.activity(); // not written (throttled), but this tab keeps it
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lock.locked).toBe(true);
  });

  it('a stored deadline in the past locks at start (a reload, a tab that slept)', () => {
    storage.setItem(LOCK_STORAGE_KEY, JSON.stringify({ tag: 'session-a', deadline: Date.now() - 1 }));
    const lock = start();
    expect(lock.locked).toBe(true);
  });

  it('a stored deadline in the future is kept across a reload', () => {
    start().stop();
    vi.advanceTimersByTime(10 * MINUTE);
    const reloaded = start();
    vi.advanceTimersByTime(5 * MINUTE - 1);
    expect(reloaded.locked).toBe(false);
    vi.advanceTimersByTime(1);
    expect(reloaded.locked).toBe(true);
  });

  it('a deadline left by another session does not lock a fresh sign-in', () => {
    storage.setItem(LOCK_STORAGE_KEY, JSON.stringify({ tag: 'old-session', deadline: Date.now() - 1 }));
    const lock = start('new-session');
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(15 * MINUTE);
    expect(lock.locked).toBe(true);
  });

  it('activity after the deadline (a tab waking up) locks instead of extending', () => {
    const lock = start();
    // The tab slept: its timer never ran, the clock moved on.
    vi.setSystemTime(Date.now() + 20 * MINUTE);
    lock.activity();
    expect(lock.locked).toBe(true);
    lock.activity();
    expect(lock.locked).toBe(true);
    expect(changes).toEqual([true]);
  });

  it('unlock restarts the 15 minutes', () => {
    const lock = start();
    vi.advanceTimersByTime(15 * MINUTE);
    expect(lock.locked).toBe(true);
    vi.advanceTimersByTime(3 * MINUTE);
    lock.unlock();
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(lock.locked).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lock.locked).toBe(true);
    expect(changes).toEqual([true, false, true]);
  });

  it('tabs share the deadline: activity in one keeps the other open, a PIN in one opens the other', () => {
    const first = start();
    const second = start();
    vi.advanceTimersByTime(10 * MINUTE);
    first.activity();
    vi.advanceTimersByTime(10 * MINUTE);
    expect(second.locked).toBe(false);
    vi.advanceTimersByTime(5 * MINUTE);
    expect(first.locked).toBe(true);
    expect(second.locked).toBe(true);
    first.unlock();
    second.sync(); // the storage event
    expect(second.locked).toBe(false);
  });

  it('the session tag does not contain the token', () => {
    const token = 'a'.repeat(43);
    expect(sessionTag(token)).not.toContain('aaaa');
    expect(sessionTag(token)).toBe(sessionTag(token));
    expect(sessionTag(token)).not.toBe(sessionTag(`${token}b`));
  });
});
