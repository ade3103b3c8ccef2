/**
 * Client-side checks of the auth forms: the same rules as the contract's schemas (validators.test.ts
 * compares them), kept as small regexes so the sign-in page does not ship zod.
 * docs/product.md#validation-rules: register continue is disabled while first name or email is empty; the
 * last name never blocks; code and PIN are four digits.
 */
import { isMaskComplete } from '../../shared/phone/masks.ts';

/** Same as the contract's PersonName: letters first, then letters, spaces, apostrophes, dots, hyphens. */
const NAME = /^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u;
/** zod 4's email rule, which the contract's Email uses. */
const EMAIL =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const E164 = /^\+[1-9]\d{7,14}$/;
const FOUR_DIGITS = /^\d{4}$/;

export type ValidationKey =
  | 'firstNameRequired'
  | 'nameInvalid'
  | 'emailRequired'
  | 'emailInvalid'
  | 'phoneIncomplete';

export function checkFirstName(value: string): ValidationKey | null {
  const name = value.trim();
  if (!name) return 'firstNameRequired';
  return name.length <= 100 && NAME.test(name) ? null : 'nameInvalid';
}

/** The last name is checked only when given: an empty one is the server's to refuse. */
export function checkLastName(value: string): ValidationKey | null {
  const name = value.trim();
  if (!name) return null;
  return name.length <= 100 && NAME.test(name) ? null : 'nameInvalid';
}

export function checkEmail(value: string): ValidationKey | null {
  const email = value.trim();
  if (!email) return 'emailRequired';
  return email.length <= 254 && EMAIL.test(email) ? null : 'emailInvalid';
}

export function checkPhone(e164: string, digits: string, mask: string): ValidationKey | null {
  return isMaskComplete(digits, mask) && E164.test(e164) ? null : 'phoneIncomplete';
}

export function isFourDigits(value: string): boolean {
  return FOUR_DIGITS.test(value);
}

/**
 * docs/product.md#validation-rules: continue on register step 1 is disabled when first name or email is
 * empty.
 */
export function canContinueDetails(firstName: string, email: string): boolean {
  return firstName.trim() !== '' && email.trim() !== '';
}
