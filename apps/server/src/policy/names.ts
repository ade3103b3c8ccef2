/**
 * How one person is named to another: first name and the initial of the last name ('Иван П.'), all a
 * sender, a payer or a requester learns of the other side
 * (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features).
 */
export function maskedName(firstName: string, lastName: string): string {
  const initial = [...lastName.trim()][0];
  return initial ? `${firstName.trim()} ${initial.toUpperCase()}.` : firstName.trim();
}
