/**
 * Phone masks: '#' is a digit, any other character is shown as typed by the mask
 * ("(###)###-##-##"). Numbers are kept as digits only and sent as dial code plus digits.
 */

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** How many digits a mask holds. */
export function maskCapacity(mask: string): number {
  return mask.split('#').length - 1;
}

/**
 * Lays digits into a mask, stopping after the last digit (a separator is shown only when a digit
 * follows it, so Backspace never sticks on a bracket). Extra digits are dropped.
 */
export function applyMask(digits: string, mask: string): string {
  const clean = digitsOnly(digits);
  let out = '';
  let pending = '';
  let used = 0;
  for (const char of mask) {
    if (used >= clean.length) break;
    if (char === '#') {
      out += pending + clean[used];
      pending = '';
      used += 1;
    } else {
      pending += char;
    }
  }
  return out;
}

/** The index in `formatted` just after its n-th digit (0 -> before the first digit). */
export function caretAfterDigits(formatted: string, count: number): number {
  if (count <= 0) {
    const first = formatted.search(/\d/);
    return first === -1 ? formatted.length : first;
  }
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (/\d/.test(formatted[index]!)) {
      seen += 1;
      if (seen === count) return index + 1;
    }
  }
  return formatted.length;
}

export function isMaskComplete(digits: string, mask: string): boolean {
  return digitsOnly(digits).length === maskCapacity(mask);
}

/** '+7' and '(912)345-67-89' -> '+79123456789' */
export function toE164(dial: string, digits: string): string {
  return `+${digitsOnly(dial)}${digitsOnly(digits)}`;
}

/**
 * The mask as the app shows a number everywhere ('+7 999 568-62-49'): a leading area code in
 * brackets becomes a group followed by a space, so the input and the rest of the app agree.
 */
export function readableMask(mask: string): string {
  return mask.replace(/^\((#+)\)/, '$1 ');
}

/** A mask as a hint for the input: "(###)###-##-##" -> "(___)___-__-__". */
export function maskPlaceholder(mask: string): string {
  return mask.replace(/#/g, '_');
}
