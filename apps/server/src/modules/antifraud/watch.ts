/**
 * What each server instance knows of the two tables every outgoing payment's check reads (assess.ts),
 * so that an everyday payment (a person with no trusted person, a recipient on no local list) costs
 * no read (docs/decisions/antifraud.md#antifraud-and-the-trusted-person):
 * - the local fraud list's entries in force, read whole when listening starts and after each change;
 * - the people known to have no trusted person's row at all (a row in any state is read each time).
 * Kept only while this instance follows the database's `antifraud_changed` notices
 * (db/functions/antifraud.sql: every write to either table notifies at commit, with 'list' or the
 * person's id); a lost listening connection empties it until listening again, as sessions/cache.ts
 * does. A change made in this process drops what it changes at once and again at its commit, and a
 * read that began before any change was seen is used but not kept (a generation count).
 */
import { LRUCache } from 'lru-cache';
import { type Db, isDb, type Queryable, remembered } from '../../db/client.ts';
import type { FraudMatch } from '../../providers/fraud-db/fraud-db-provider.ts';

/** The local list's entries in force: confirmed by a second operator, not removed (`f` is fraud_list). */
export const LIST_IN_FORCE = 'f.removed_at IS NULL AND f.confirmed_at IS NOT NULL';

/** A recipient as the local list keeps it: a phone, an account, a card's keyed hash. */
export type ListedRecipient = Record<FraudMatch, string | null>;
const KINDS: readonly FraudMatch[] = ['phone', 'account', 'card'];

const CHANNEL = 'antifraud_changed';
const MAX_PEOPLE = 100_000;

class AntifraudWatch {
  private listening = false;
  private list: Set<string> | null = null;
  private loading = false;
  private readonly untrusted = new LRUCache<string, true>({ max: MAX_PEOPLE });
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
    db.listen(CHANNEL, {
      notice: (payload) => (payload === 'list' ? this.listChanged() : this.personChanged(payload)),
      ready: () => {
        this.forgetAll();
        this.listening = true;
      },
      lost: () => {
        this.listening = false;
        this.forgetAll();
      },
    }).catch(() => {
      // Not listening: nothing is kept and every check reads the database.
    });
  }

  /** Which of the recipient's identifiers the local list holds, or undefined while it is not known here. */
  listed(recipient: ListedRecipient): FraudMatch | null | undefined {
    if (!this.listening) return undefined;
    const list = this.list;
    if (!list) {
      this.reload();
      return undefined;
    }
    return KINDS.find((kind) => recipient[kind] !== null && list.has(`${kind}:${recipient[kind]}`)) ?? null;
  }

  hasNoTrustedPerson(person: string): boolean {
    return this.listening && this.untrusted.has(person);
  }

  /** A read that found no trusted person's row for `person`, begun at `seen`. */
  noTrustedPersonRead(person: string, seen: number): void {
    if (this.listening && seen === generation) this.untrusted.set(person, true);
  }

  listChanged(): void {
    generation++;
    this.list = null;
  }

  personChanged(person: string): void {
    generation++;
    this.untrusted.delete(person);
  }

  private forgetAll(): void {
    generation++;
    this.list = null;
    this.untrusted.clear();
  }

  private reload(): void {
    if (this.loading) return;
    this.loading = true;
    const seen = generation;
    this.db
      .query<{ key: string }>(
        `SELECT f.kind || ':' || f.value AS key FROM fraud_list f WHERE ${LIST_IN_FORCE}`,
      )
      .then(({ rows }) => {
        if (this.listening && seen === generation) this.list = new Set(rows.map((r) => r.key));
      })
      .catch(() => {})
      .finally(() => {
        this.loading = false;
      });
  }
}

const WATCH = Symbol('antifraud watch');
/** Every watch of the process (one per Db object), weakly: changes made here are announced to each. */
const everyWatch = new Set<WeakRef<AntifraudWatch>>();
let generation = 0;

/** This database's watch (a Db only: inside a transaction the check reads directly). */
export function antifraudWatch(q: Queryable): { watch: AntifraudWatch; seen: number } | null {
  if (!isDb(q)) return null;
  const watch = remembered(q, WATCH, () => {
    const made = new AntifraudWatch(q);
    everyWatch.add(new WeakRef(made));
    return made;
  });
  return { watch, seen: generation };
}

function announce(q: Queryable, change: (watch: AntifraudWatch) => void): void {
  const each = () => {
    for (const ref of everyWatch) {
      const watch = ref.deref();
      if (watch) change(watch);
      else everyWatch.delete(ref);
    }
  };
  each();
  q.afterCommit(each);
}

/** Call before writing the local fraud list: no instance of this process keeps what it knew of it. */
export function fraudListChanging(q: Queryable): void {
  announce(q, (watch) => watch.listChanged());
}

/** Call before writing a person's trusted person's row. */
export function trustedPersonChanging(q: Queryable, person: string): void {
  announce(q, (watch) => watch.personChanged(person));
}
