/**
 * The cursor of a page read newest first by (created_at, id): the last row's time and id, sealed
 * (http/opaque-id.ts) so it reveals nothing and cannot be forged. A cursor that does not open to
 * exactly a time within the contract's date range and an id is FIELD_INVALID, so a forged one never
 * reaches a query's casts.
 */
import { DATE_MAX, DATE_MIN, ID_PATTERN } from '@e-wallet/contract';
import { AppError } from '../errors.ts';
import { type OpaqueIds, processIds } from './opaque-id.ts';

export interface Cursor {
  createdAt: Date;
  id: string;
  /** Which of a page's merged sources the row came from (notifications: stored or money). */
  source?: string;
}

export function encodeCursor(cursor: Cursor, ids: OpaqueIds = processIds): string {
  const fields = [cursor.createdAt.toISOString(), cursor.id];
  if (cursor.source !== undefined) fields.push(cursor.source);
  return ids.sealCursor(fields);
}

export function decodeCursor(text: string, ids: OpaqueIds = processIds): Cursor {
  const fields = ids.openCursor(text);
  const [iso = '', id = '', source, ...rest] = fields ?? [];
  const createdAt = new Date(iso);
  const time = createdAt.getTime();
  if (
    !fields ||
    rest.length > 0 ||
    !ID_PATTERN.test(id) ||
    Number.isNaN(time) ||
    time < Date.parse(DATE_MIN) ||
    time > Date.parse(DATE_MAX)
  )
    throw new AppError('FIELD_INVALID', { field: 'cursor' });
  return source === undefined ? { createdAt, id } : { createdAt, id, source };
}
