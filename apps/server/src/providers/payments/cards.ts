/**
 * Card numbers on the sandbox payment page (docs/decisions/api.md#running-it-contracts-that-tests-rely-on and
 * docs/decisions/security-rules.md#security-baselines). A number is 13 to 19 digits (spaces and dashes
 * allowed while typing) passing the Luhn check. Outcomes by test card:
 *   4111 1111 1111 1111   always pays
 *   4000 0000 0000 0002   always declined
 *   any other valid card  pays
 * Only the last four digits are ever kept; the number is never logged.
 */

export const SANDBOX_CARD_PAYS = '4111111111111111';
export const SANDBOX_CARD_DECLINED = '4000000000000002';

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The digits of a typed card number, or null when it is not a valid card number. */
export function cardDigits(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) return null;
  return digits;
}

/** What the sandbox bank answers for a valid card. */
export function sandboxCardOutcome(digits: string): 'pays' | 'declined' {
  return digits === SANDBOX_CARD_DECLINED ? 'declined' : 'pays';
}
