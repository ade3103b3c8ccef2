/**
 * Hints: what an instance remembers of rows, per database (per Db object), for statements that verify
 * it under their own locks before relying on it, so that a payment is one round trip. A stale hint
 * costs a refused statement and a fresh read, never a wrong answer, so hints need no notices between
 * instances, only a bound on their number and age; whoever sees a refusal forgets the hints it used.
 * (A session is trusted as read, so its cache follows the database's notices: sessions/cache.ts.)
 */
import { LRUCache } from 'lru-cache';
import { type Db, remembered } from './client.ts';

export interface HintOptions {
  max: number;
  ttlMs: number;
}

/** One bounded memory per database, kept in the database's own memory. */
export function hintsPerDatabase<V extends {}>(options: HintOptions): (db: Db) => LRUCache<string, V> {
  const key = Symbol('hints');
  return (db) => remembered(db, key, () => new LRUCache<string, V>({ max: options.max, ttl: options.ttlMs }));
}
