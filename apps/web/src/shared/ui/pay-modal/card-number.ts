/**
 * The card number field (docs/product.md#validation-rules): digits and spaces, only digits kept and cut to
 * 16, shown grouped in fours while typing (at most 19 characters with the spaces). A card number
 * is shown elsewhere only masked (docs/decisions/security-rules.md#security-baselines: first 6 and last 4).
 */
export const CARD_DIGITS = 16;
/** 16 digits and the three spaces between their groups. */
export const CARD_MAX_LENGTH = 19;

/** Only the digits of what was typed or pasted, at most 16. */
export function cardDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CARD_DIGITS);
}

/** '41111111' -> '4111 1111'. */
export function groupCard(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The field's next value after an edit, with the caret kept after the same digits it followed,
 * so typing or deleting in the middle does not throw the caret to the end.
 */
export function formatCardInput(text: string, caret: number | null): { value: string; caret: number } {
  const digits = cardDigits(text);
  const value = groupCard(digits);
  const digitsBefore = Math.min(cardDigits(text.slice(0, caret ?? text.length)).length, digits.length);
  if (digitsBefore === 0) return { value, caret: 0 };
  let seen = 0;
  let position = 0;
  for (; position < value.length; position += 1) {
    if (/\d/.test(value[position]!)) seen += 1;
    if (seen === digitsBefore) break;
  }
  return { value, caret: position + 1 };
}

/** The Luhn check every bank card number passes. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardProblem = 'cardIncomplete' | 'cardInvalid';

/** Why a card number cannot be sent yet, or null when it can. */
export function cardProblem(digits: string): CardProblem | null {
  if (digits.length !== CARD_DIGITS) return 'cardIncomplete';
  return isLuhnValid(digits) ? null : 'cardInvalid';
}

/** '4111111111111111' -> '4111 11•• •••• 1111' (first 6 and last 4, as the server stores it). */
export function maskCard(digits: string): string {
  if (digits.length < 10) return groupCard(digits);
  const hidden = '•'.repeat(digits.length - 10);
  return `${digits.slice(0, 6)}${hidden}${digits.slice(-4)}`.replace(/(.{4})(?=.)/g, '$1 ');
}
