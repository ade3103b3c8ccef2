/**
 * Sessions recently read, kept in memory by each server instance, so that most authenticated
 * requests make no database round trip for their token (docs/performance.md#no-round-trip-for-the-token). Correctness comes first:
 *
 * - An entry is trusted only while this instance follows the database's `sessions_changed`
 *   notices (db/functions/sessions.sql: every revocation, expiry change, idling or removal of a session
 *   notifies, at commit, with the user's id). A notice drops that user's entries; a lost listening
 *   connection empties the cache and stops using it until listening again.
 * - A change made here drops the user's entries when it commits (`sessionsChanging`, called before
 *   the change is written), so this instance never answers from an entry older than its own change,
 *   not even in the moment before its notice arrives. Until then no read of that user is kept.
 * - A read that began before any change was seen is used but not kept (a generation count).
 * - Entries live at most a minute, and the session's expiry and idleness are checked on every use.
 *
 * The cache is per database (per Db object); changes are announced to every cache in the process,
 * which at worst drops entries that were still right.
 */
import { LRUCache } from 'lru-cache';
import { type Db, isDb, type Queryable, remembered } from '../db/client.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  last_used_at: Date;
  expires_at: Date;
}

const MAX_ENTRIES = 100_000;
const ENTRY_TTL_MS = 60_000;
/** How long a change made here keeps its user uncached if its transaction never commits. */
const CHANGE_WINDOW_MS = 10_000;
const SESSIONS_CHANNEL = 'sessions_changed';

class SessionCache {
  private readonly entries = new LRUCache<string, SessionRow>({ max: MAX_ENTRIES, ttl: ENTRY_TTL_MS });
  private listening = false;

  constructor(db: Db) {
    db.listen(SESSIONS_CHANNEL, {
      notice: (userId) => {
        this.forget(userId);
        pending.delete(userId);
        generation++;
      },
      ready: () => {
        this.entries.clear();
        generation++;
        this.listening = true;
      },
      lost: () => {
        this.listening = false;
        this.entries.clear();
        generation++;
      },
    }).catch(() => {
      // Not listening: the cache stays unused and every read goes to the database.
    });
  }

  async read(hash: string, load: () => Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
    const hit = this.listening ? this.entries.get(hash) : undefined;
    if (hit && !changing(hit.user_id)) return hit;
    const seen = generation;
    const row = await load();
    if (row && this.listening && seen === generation && !changing(row.user_id)) this.entries.set(hash, row);
    return row;
  }

  /** The session was used now (its last_used_at was written): later reads see the new time. */
  touched(hash: string, at: Date): void {
    const entry = this.entries.get(hash);
    if (entry) entry.last_used_at = at;
  }

  forget(userId: string): void {
    for (const [hash, row] of this.entries.entries()) if (row.user_id === userId) this.entries.delete(hash);
  }
}

const CACHE = Symbol('session cache');
/** Every cache of the process (one per Db object), weakly: changes made here are announced to each. */
const everyCache = new Set<WeakRef<SessionCache>>();
/** Users with a change made here that has not committed yet: until when their reads are not kept. */
const pending = new Map<string, number>();
let generation = 0;

function changing(userId: string): boolean {
  const until = pending.get(userId);
  if (until === undefined) return false;
  if (until > performance.now()) return true;
  pending.delete(userId);
  return false;
}

/** The session of a token hash through this database's cache (a Db only; a transaction reads directly). */
export function cachedSession(
  q: Queryable,
  hash: string,
  load: () => Promise<SessionRow | undefined>,
): Promise<SessionRow | undefined> {
  if (!isDb(q)) return load();
  const cache = remembered(q, CACHE, () => {
    const made = new SessionCache(q);
    everyCache.add(new WeakRef(made));
    return made;
  });
  return cache.read(hash, load);
}

export function sessionTouched(q: Queryable, hash: string, at: Date): void {
  if (isDb(q)) (q.memory.get(CACHE) as SessionCache | undefined)?.touched(hash, at);
}

/**
 * Call before writing a change that can end sessions of `userId` (revocation): from now until the
 * change commits no session of the user is kept, and at its commit every cached one is dropped.
 */
export function sessionsChanging(q: Queryable, userId: string): void {
  pending.set(userId, performance.now() + CHANGE_WINDOW_MS);
  const drop = () => {
    for (const ref of everyCache) {
      const cache = ref.deref();
      if (cache) cache.forget(userId);
      else everyCache.delete(ref);
    }
    pending.delete(userId);
    generation++;
  };
  drop();
  q.afterCommit(drop);
}
