import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './date.ts';
import { formatAmountText, formatMoney, formatSignedMoney } from './money.ts';

describe('money formatting', () => {
  it('groups thousands as text, without floats', () => {
    expect(formatAmountText('1234567.50')).toBe('1\u00a0234\u00a0567,50');
    expect(formatAmountText('1234567.50', 'en')).toBe('1,234,567.50');
    expect(formatAmountText('9007199254740993.01')).toBe('9\u00a0007\u00a0199\u00a0254\u00a0740\u00a0993,01');
  });

  it('shows the contract currency symbols', () => {
    expect(formatMoney('1500.00', 'RUB')).toBe('1\u00a0500,00\u00a0₽');
    expect(formatMoney('1500.00', 'USD', 'en')).toBe('$1,500.00');
    expect(formatMoney('5.00', 'EUR')).toBe('5,00\u00a0€');
    expect(formatMoney('5.00', 'IDR')).toBe('5,00\u00a0¤');
  });

  it('prefixes the sign of the spec: none for zero, - and +', () => {
    expect(formatSignedMoney('0.00', 'RUB')).toBe('0,00\u00a0₽');
    expect(formatSignedMoney('-20.50', 'RUB')).toBe('-20,50\u00a0₽');
    expect(formatSignedMoney('20.50', 'RUB')).toBe('+20,50\u00a0₽');
  });
});

describe('date formatting', () => {
  it('writes a long date with time in Moscow time, the zone named, whatever the device zone', () => {
    const moment = '2026-11-22T13:05:00Z';
    expect(formatDateTime(moment)).toBe('22 ноября 2026 г., 16:05 МСК');
    expect(formatDate(moment)).toBe('22 ноября 2026 г.');
    expect(formatDateTime(moment, 'en')).toBe('22 November 2026, 16:05 MSK');
    // 22:30 UTC is already the next day in Moscow.
    expect(formatDate('2026-11-22T22:30:00Z')).toBe('23 ноября 2026 г.');
  });

  it('answers an empty text for an invalid date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});
