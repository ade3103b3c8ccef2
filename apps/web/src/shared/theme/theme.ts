/**
 * Light, dark or the system's theme (docs/decisions/account.md#a-persons-account). The choice is kept on the
 * device and written as `data-theme` on <html>; 'system' removes it, and theme.css then follows
 * prefers-color-scheme. Every colour is a custom property of theme.css, so a screen needs nothing
 * of its own to change theme.
 */
import { useSyncExternalStore } from 'react';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = 'e-wallet-theme';

const listeners = new Set<() => void>();

function stored(): Theme {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

let current: Theme = typeof window === 'undefined' ? 'system' : stored();

function apply(theme: Theme): void {
  if (typeof document === 'undefined') return;
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** Called once at start, before the first render, so a dark page never flashes light. */
export function applyStoredTheme(): void {
  apply(current);
}

export function setTheme(theme: Theme): void {
  current = theme;
  try {
    if (theme === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the choice lasts for this visit.
  }
  apply(theme);
  for (const listener of listeners) listener();
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => 'system',
  );
}
