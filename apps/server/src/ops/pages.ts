/**
 * The back office's lists, each a page like the wallet's (docs/decisions/back-office.md, 'The back office on the app's
 * stack'): `{results, next}`, newest first by (time, id), `next` a sealed cursor (http/cursor.ts) or null
 * on the last page. Each concern's list is in its own file (people.ts, refunds.ts, payouts.ts, ...); these
 * are their bounds.
 */
import type { AppContext } from '../context.ts';
import { type Cursor, decodeCursor, encodeCursor } from '../http/cursor.ts';
import { opaqueIds } from '../http/opaque-id.ts';

export interface PageQuery {
  cursor?: string | undefined;
  limit?: string | undefined;
}
export interface Page<T> {
  results: T[];
  next: string | null;
}

export const DEFAULT_LIMIT = 50;

/** The page's bounds: where it starts (null: the newest) and how many rows to read (one more than shown). */
export function bounds(ctx: AppContext, query: PageQuery): { after: Cursor | null; limit: number } {
  return {
    after: query.cursor ? decodeCursor(query.cursor, opaqueIds(ctx.config)) : null,
    limit: Number(query.limit ?? DEFAULT_LIMIT),
  };
}

/** Cuts the rows read (limit + 1) to a page; `next` points past its last row when there are more. */
export function pageOf<T>(ctx: AppContext, rows: T[], limit: number, key: (row: T) => Cursor): Page<T> {
  const results = rows.slice(0, limit);
  const last = results.at(-1);
  return {
    results,
    next: rows.length > limit && last ? encodeCursor(key(last), opaqueIds(ctx.config)) : null,
  };
}
