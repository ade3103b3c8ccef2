import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountSign,
  currencySymbol,
  formatAmount,
  formatAmountText,
  formatMoney,
  MAX_MINOR,
  parseAmount,
} from './money.ts';

describe('parseAmount', () => {
  it('reads whole and fractional amounts into minor units', () => {
    expect(parseAmount('1500', 'RUB')).toEqual({ ok: true, minor: 150000n });
    expect(parseAmount('1500.5', 'RUB')).toEqual({ ok: true, minor: 150050n });
    expect(parseAmount('0,01', 'RUB')).toEqual({ ok: true, minor: 1n });
    expect(parseAmount(' 1 000.10 ', 'RUB')).toEqual({ ok: true, minor: 100010n });
    expect(parseAmount('12', 'JPY')).toEqual({ ok: true, minor: 12n });
    expect(parseAmount('1.50', 'RUB')).toEqual({ ok: true, minor: 150n });
  });
  it('rejects more digits than the currency has', () => {
    expect(parseAmount('1.001', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_TOO_PRECISE' });
    expect(parseAmount('1.5', 'JPY')).toEqual({ ok: false, error: 'AMOUNT_TOO_PRECISE' });
    expect(parseAmount('1.100', 'RUB')).toEqual({ ok: true, minor: 110n });
  });
  it('rejects zero, negative, malformed and huge amounts', () => {
    expect(parseAmount('0', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_NOT_POSITIVE' });
    expect(parseAmount('0.00', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_NOT_POSITIVE' });
    for (const bad of ['-1', '1e3', 'abc', '', '.5', '01', '1.', 'NaN', 'Infinity', '0x10', '1.2.3']) {
      expect(parseAmount(bad, 'RUB')).toEqual({ ok: false, error: 'AMOUNT_INVALID' });
    }
    expect(parseAmount('99999999999999', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_TOO_LARGE' });
  });
  it('round-trips every amount through format and parse', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_MINOR }), (minor) => {
        const text = formatAmount(minor, 'RUB');
        expect(parseAmount(text, 'RUB')).toEqual({ ok: true, minor });
      }),
    );
  });
});

describe('formatAmount', () => {
  it('writes the currency digits', () => {
    expect(formatAmount(150000n, 'RUB')).toBe('1500.00');
    expect(formatAmount(5n, 'RUB')).toBe('0.05');
    expect(formatAmount(-5n, 'USD')).toBe('-0.05');
    expect(formatAmount(0n, 'EUR')).toBe('0.00');
    expect(formatAmount(7n, 'JPY')).toBe('7');
  });
});

describe('display helpers', () => {
  it('knows the spec currency symbols', () => {
    expect(['USD', 'EUR', 'RUB', 'JPY', 'GBP', 'IDR'].map(currencySymbol)).toEqual([
      '$',
      '€',
      '₽',
      '¥',
      '£',
      '¤',
    ]);
  });
  it('reads the sign of wire amounts', () => {
    expect(amountSign('0.00')).toBe(0);
    expect(amountSign('-0.00')).toBe(0);
    expect(amountSign('-10.00')).toBe(-1);
    expect(amountSign('10.00')).toBe(1);
  });
});

describe('formatMoney', () => {
  it('shows money as a person reads it in each language, the same on screen and in notifications', () => {
    expect(formatMoney('2750.40', 'RUB')).toBe('2\u00a0750,40\u00a0₽');
    expect(formatMoney('2750.40', 'RUB', 'en')).toBe('₽2,750.40');
    expect(formatMoney('-20.50', 'USD', 'en')).toBe('\u2212$20.50');
    expect(formatAmountText('-1234567.50')).toBe('\u22121\u00a0234\u00a0567,50');
    expect(formatAmountText('not money')).toBe('not money');
  });
});
