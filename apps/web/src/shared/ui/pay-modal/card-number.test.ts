import { describe, expect, it } from 'vitest';
import {
  CARD_MAX_LENGTH,
  cardDigits,
  cardProblem,
  formatCardInput,
  groupCard,
  isLuhnValid,
  maskCard,
} from './card-number.ts';

describe('card number', () => {
  it('keeps only digits, at most 16', () => {
    expect(cardDigits('4111-1111 abc 1111')).toBe('411111111111');
    expect(cardDigits('4111 1111 1111 1111 9999')).toBe('4111111111111111');
    expect(cardDigits('')).toBe('');
  });

  it('groups digits in fours while typing, never past 19 characters', () => {
    expect(groupCard('4')).toBe('4');
    expect(groupCard('4111')).toBe('4111');
    expect(groupCard('41111')).toBe('4111 1');
    expect(groupCard('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCard('4111111111111111')).toHaveLength(CARD_MAX_LENGTH);
  });

  it('regroups an edit and keeps the caret after the same digit', () => {
    // Typing the fifth digit at the end: the space appears before it, the caret after it.
    expect(formatCardInput('41111', 5)).toEqual({ value: '4111 1', caret: 6 });
    // A digit typed in the middle of the first group shifts the rest.
    expect(formatCardInput('41911 1111', 3)).toEqual({ value: '4191 1111 1', caret: 3 });
    // Deleting the digit after a space keeps the caret before the space's group.
    expect(formatCardInput('4111 ', 5)).toEqual({ value: '4111', caret: 4 });
    // A pasted number with dashes.
    expect(formatCardInput('4000-0000-0000-0002', 19)).toEqual({ value: '4000 0000 0000 0002', caret: 19 });
    expect(formatCardInput('', 0)).toEqual({ value: '', caret: 0 });
  });

  it('checks the Luhn digit', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4000000000000002')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
    expect(isLuhnValid('411')).toBe(false);
  });

  it('says why a card cannot be sent', () => {
    expect(cardProblem('411111111111111')).toBe('cardIncomplete');
    expect(cardProblem('4111111111111112')).toBe('cardInvalid');
    expect(cardProblem('4111111111111111')).toBeNull();
  });

  it('masks all but the first six and last four digits', () => {
    expect(maskCard('4111111111111111')).toBe('4111 11•• •••• 1111');
  });
});
