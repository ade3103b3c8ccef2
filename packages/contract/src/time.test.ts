import { describe, expect, it } from 'vitest';
import {
  dayStart,
  formatCalendarDate,
  formatDate,
  formatDateTime,
  fromWalletClock,
  walletClock,
} from './time.ts';

describe('the wallet time: Moscow, named, one format', () => {
  it('writes a moment in Moscow time with the zone named, in both languages', () => {
    expect(formatDateTime('2026-11-25T15:19:26Z', 'ru')).toBe('25 ноября 2026 г., 18:19 МСК');
    expect(formatDateTime('2026-11-25T15:19:26Z', 'en')).toBe('25 November 2026, 18:19 MSK');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('takes the day in Moscow, not in UTC', () => {
    expect(formatDate('2026-11-24T22:30:00Z', 'ru')).toBe('25 ноября 2026 г.');
    expect(formatCalendarDate('2026-11-24', 'en')).toBe('24 November 2026');
  });

  it('starts a day at Moscow midnight and reads a wall clock both ways', () => {
    expect(dayStart('2026-11-24').toISOString()).toBe('2026-11-23T21:00:00.000Z');
    expect(walletClock(new Date('2026-11-25T15:19:26Z'))).toBe('2026-11-25 18:19:26');
    expect(fromWalletClock('2026-11-25T18:19').toISOString()).toBe('2026-11-25T15:19:00.000Z');
  });
});
