import { Code, Email, PersonName, Phone } from '@e-wallet/contract';
import { describe, expect, it } from 'vitest';
import {
  canContinueDetails,
  checkEmail,
  checkFirstName,
  checkLastName,
  checkPhone,
  isFourDigits,
} from './validators.ts';

describe('auth validators', () => {
  it('block continue only on an empty first name or email (never the last name)', () => {
    expect(canContinueDetails('', 'a@b.ru')).toBe(false);
    expect(canContinueDetails('Анна', ' ')).toBe(false);
    expect(canContinueDetails('Анна', 'a@b.ru')).toBe(true);
    expect(checkLastName('')).toBeNull();
  });

  it('agree with the contract on names', () => {
    for (const name of [
      'Анна',
      "O'Neil",
      'Мария-Луиза',
      'Jean Paul',
      'Zoë',
      '',
      ' ',
      '1van',
      'A<b>',
      '-Ann',
    ]) {
      const contract = PersonName.safeParse(name).success;
      expect(checkFirstName(name) === null, name).toBe(contract);
    }
    expect(checkFirstName('')).toBe('firstNameRequired');
    expect(checkFirstName('R2D2')).toBe('nameInvalid');
  });

  it('agree with the contract on e-mails', () => {
    for (const email of [
      'anna@example.ru',
      'a.b+c@mail.co.uk',
      'anna@',
      '@mail.ru',
      'a b@c.ru',
      'a@b',
      'a..b@c.ru',
    ]) {
      expect(checkEmail(email) === null, email).toBe(Email.safeParse(email).success);
    }
    expect(checkEmail('')).toBe('emailRequired');
    expect(checkEmail('anna@')).toBe('emailInvalid');
  });

  it('accept a phone only when the mask is full and the number is E.164', () => {
    const mask = '(###)###-##-##';
    expect(checkPhone('+7912345678', '912345678', mask)).toBe('phoneIncomplete');
    expect(checkPhone('+79123456789', '9123456789', mask)).toBeNull();
    expect(Phone.safeParse('+79123456789').success).toBe(true);
  });

  it('take four digits as a code or PIN, like the contract', () => {
    for (const code of ['1234', '0000', '123', '12345', '12a4', '']) {
      expect(isFourDigits(code), code).toBe(Code.safeParse(code).success);
    }
  });
});
