/**
 * The cursor of a page read newest first by (created_at, id): the last row's time and id, opaque to
 * the client (base64url of `<ISO time>|<UUID>`). A cursor that does not decode to exactly those two
 * is FIELD_INVALID, so a forged one never reaches a query's casts.
 */
import { ID_PATTERN } from '@e-wallet/contract';
import { AppError } from '../errors.ts';

export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  const [iso = '', id = '', ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso);
  if (rest.length > 0 || !ID_PATTERN.test(id) || Number.isNaN(createdAt.getTime()))
    throw new AppError('FIELD_INVALID', { field: 'cursor' });
  return { createdAt, id };
}
