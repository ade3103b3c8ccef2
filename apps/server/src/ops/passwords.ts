/**
 * Operators' passwords, kept as scrypt (docs/decisions/back-office.md, 'The operators' back office'). A check runs for
 * unknown e-mails too, against a hash nothing matches, so the answer's time does not tell which e-mails
 * are operators.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { OPERATOR_PASSWORD_MIN } from '@e-wallet/contract';

export const PASSWORD_MIN = OPERATOR_PASSWORD_MIN;
/** A hash no password matches, checked for unknown e-mails. */
const UNKNOWN_HASH = `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${derived.toString('base64')}`;
}

/** Whether the password is the stored one's; null (no usable operator) never matches, in the same time. */
export async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  const [kind, salt, expected] = (stored ?? UNKNOWN_HASH).split('$');
  if (kind !== 'scrypt' || !salt || !expected) return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64'), 32);
  const want = Buffer.from(expected, 'base64');
  return stored !== null && derived.length === want.length && timingSafeEqual(derived, want);
}
