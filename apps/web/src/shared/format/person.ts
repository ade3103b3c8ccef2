// The contract's phone formatting, shared with the back office.
export { formatPhone } from '@e-wallet/contract/phone';

/** The avatar's initial: the first letter of the first name, upper case. */
export function initialOf(firstName: string): string {
  const letter = [...firstName.trim()][0];
  return letter ? letter.toLocaleUpperCase('ru') : '?';
}
