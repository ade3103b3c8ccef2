/**
 * Checks of the identity documents a person enters on a verification page: a Russian passport
 * (series and number, 10 digits), an individual's INN (12 digits with two check digits) or a SNILS
 * (11 digits with its check number), a full name and a birth date (14 to 120 years old).
 */

export const DOCUMENT_TYPES = ['passport', 'inn', 'snils'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface ApplicantInput {
  document_type?: string;
  document_number?: string;
  full_name?: string;
  birth_date?: string;
}

export interface Applicant {
  documentType: DocumentType;
  /** Digits only. */
  documentNumber: string;
  fullName: string;
  birthDate: string;
}

export type ApplicantField = 'document_type' | 'document_number' | 'full_name' | 'birth_date';

const digitsOf = (text: string) => text.replace(/[\s-]/g, '');

export function isValidInn(digits: string): boolean {
  if (!/^\d{12}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const check = (weights: number[]) => (weights.reduce((sum, w, i) => sum + w * d[i]!, 0) % 11) % 10;
  return (
    check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11]
  );
}

/** A company's INN (10 digits), or a person's or sole trader's (12): the tax office's control digits. */
export function isValidTaxpayerInn(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return isValidInn(digits);
  const d = [...digits].map(Number);
  const sum = [2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((total, w, i) => total + w * d[i]!, 0);
  return (sum % 11) % 10 === d[9];
}

export function isValidSnils(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const sum = d.slice(0, 9).reduce((acc, digit, i) => acc + digit * (9 - i), 0);
  const expected = sum < 100 ? sum : sum <= 101 ? 0 : sum % 101 === 100 ? 0 : sum % 101;
  return expected === Number(digits.slice(9));
}

export function isValidPassport(digits: string): boolean {
  return /^\d{10}$/.test(digits);
}

/** Whole years between a birth date (YYYY-MM-DD) and `now`, or null for a date that does not exist. */
export function ageOn(birthDate: string, now: Date): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  let age = now.getUTCFullYear() - year;
  if (now.getUTCMonth() < month - 1 || (now.getUTCMonth() === month - 1 && now.getUTCDate() < day)) age -= 1;
  return age;
}

const NAME = /^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u;

/** The applicant's data, or the fields that are wrong. */
export function checkApplicant(
  input: ApplicantInput,
  now: Date,
): { ok: true; applicant: Applicant } | { ok: false; fields: ApplicantField[] } {
  const fields: ApplicantField[] = [];
  const type = DOCUMENT_TYPES.find((t) => t === input.document_type);
  if (!type) fields.push('document_type');
  const number = digitsOf(input.document_number ?? '');
  const numberOk =
    type === 'passport'
      ? isValidPassport(number)
      : type === 'inn'
        ? isValidInn(number)
        : type === 'snils'
          ? isValidSnils(number)
          : false;
  if (!numberOk) fields.push('document_number');
  const fullName = (input.full_name ?? '').trim().replace(/\s+/g, ' ');
  if (fullName.length < 3 || fullName.length > 200 || !NAME.test(fullName) || !fullName.includes(' '))
    fields.push('full_name');
  const birthDate = (input.birth_date ?? '').trim();
  const age = ageOn(birthDate, now);
  if (age === null || age < 14 || age > 120) fields.push('birth_date');
  if (fields.length > 0 || !type) return { ok: false, fields };
  return { ok: true, applicant: { documentType: type, documentNumber: number, fullName, birthDate } };
}

/** A document number as it may be kept or shown: only its last four digits. */
export function maskDocumentNumber(digits: string): string {
  return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
