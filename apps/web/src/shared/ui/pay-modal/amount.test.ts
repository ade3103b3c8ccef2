import { describe, expect, it } from 'vitest';
import { checkAmount, cleanAmountInput } from './amount.ts';

describe('amount', () => {
  it('keeps digits and one decimal separator while typing', () => {
    expect(cleanAmountInput('1 500,5')).toBe('1500,5');
    expect(cleanAmountInput('12.3.4')).toBe('12.34');
    // In English a comma groups thousands: never read as the decimal mark.
    expect(cleanAmountInput('1,500.25', 'en')).toBe('1500.25');
    expect(cleanAmountInput('abc')).toBe('');
    expect(cleanAmountInput('-20')).toBe('20');
  });

  it('answers the wire amount with the currency digits', () => {
    expect(checkAmount('1500', 'RUB')).toEqual({ ok: true, amount: '1500.00', minor: 150000n });
    expect(checkAmount('0,5', 'RUB')).toEqual({ ok: true, amount: '0.50', minor: 50n });
    expect(checkAmount('99.99', 'RUB')).toEqual({ ok: true, amount: '99.99', minor: 9999n });
  });

  it('names each problem', () => {
    expect(checkAmount('', 'RUB')).toEqual({ ok: false, problem: 'empty' });
    expect(checkAmount('   ', 'RUB')).toEqual({ ok: false, problem: 'empty' });
    expect(checkAmount('0', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_NOT_POSITIVE' });
    expect(checkAmount('0.00', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_NOT_POSITIVE' });
    expect(checkAmount('1.005', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_TOO_PRECISE' });
    expect(checkAmount('1.', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_INVALID' });
    expect(checkAmount('01', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_INVALID' });
    expect(checkAmount('99999999999999999', 'RUB')).toEqual({ ok: false, problem: 'AMOUNT_TOO_LARGE' });
  });
});
