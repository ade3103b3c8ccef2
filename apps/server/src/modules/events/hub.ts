/**
 * The open event streams of this instance and what feeds them
 * (docs/decisions/live-wallet.md#the-live-wallet).
 *
 * - A person's events are their ledger entries, numbered per account by `account_version` (gap-free
 *   and in commit order under the account's lock), and their stored notifications, numbered per person
 *   in `wallet_events` by a trigger (db/functions/wallet_events.sql). A stream's place is one number
 *   per account and one for notifications; its `Last-Event-ID` is that place ("n.v1.v2", accounts in
 *   the order they were opened). A stream only ever moves past what it has written: nothing is skipped.
 * - Changes of a person someone listens to send NOTIFY at commit to every instance; the people whose
 *   streams this instance holds are its rows of `wallet_event_listeners` (refreshed with the heartbeat).
 *   A change whose transaction looked for listeners just before a stream's row was committed sends
 *   none: the heartbeat's catch-up (every stream against its person's newest numbers) delivers it.
 * - A `sessions_changed` notice (db/functions/sessions.sql) makes the person's streams check their
 *   sessions: an ended one gets `session` and closes. The heartbeat checks them all too (expiry by time).
 * - One hub per database (per instance), made by the events route on first use.
 */
import { randomUUID } from 'node:crypto';
import type { Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { type Db, remembered } from '../../db/client.ts';
import { type OpaqueIds, opaqueIds } from '../../http/opaque-id.ts';
import { SESSION_IDLE_DAYS } from '../../sessions/tokens.ts';
import { notificationOf } from '../notifications/index.ts';
import { entryTransactionView, transactionOfEntry } from '../wallet/index.ts';

/** A comment line at least this often keeps proxies and the app's watchdog sure the stream lives. */
export const HEARTBEAT_MS = 20_000;
/** Notifications are kept this long for resuming (the promise is 5 minutes; money never expires). */
export const KEEP_EVENTS_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** A listener row not refreshed for this long belongs to an instance that is gone. */
const LISTENER_STALE_MS = 3 * 60_000;
const READ_BATCH = 200;
/** Streams one person may hold on one instance. */
const MAX_STREAMS_PER_PERSON = 20;
/** A client this far behind is cut off; it resumes from its last event. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/** Where a stream is: the last notification number and the last version of each account written. */
export interface Place {
  notes: bigint;
  versions: Map<string, bigint>;
}

export interface EventStream {
  readonly userId: string;
  readonly sessionId: string;
  readonly language: Language;
  /** Null until the stream has started. */
  place: Place | null;
  /** Writes text; false when the client is gone or too far behind (the stream is then closed). */
  write(text: string): boolean;
  close(): void;
}

interface Account {
  id: string;
  version: bigint;
}

/** A thing to tell: an entry (of an account, at a version) or a stored notification (at a number). */
type Change =
  | { kind: 'entry'; entryId: string; accountId: string; version: bigint }
  | { kind: 'notification'; seq: bigint; notificationId: string };

/** One event of the stream in the text/event-stream format. */
export function sseEvent(name: string, data: unknown, id?: string): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The Last-Event-ID of a place: the notification number, then each account's version in account order. */
function placeId(place: Place, accounts: readonly Account[]): string {
  return [place.notes, ...accounts.map((a) => place.versions.get(a.id) ?? 0n)].join('.');
}

function parsePlaceId(text: string | null): bigint[] | null {
  if (!text || !/^\d{1,18}(\.\d{1,18}){0,16}$/.test(text)) return null;
  return text.split('.').map((part) => BigInt(part));
}

function isPast(place: Place, change: Change): boolean {
  return change.kind === 'entry'
    ? (place.versions.get(change.accountId) ?? 0n) >= change.version
    : place.notes >= change.seq;
}

function advance(place: Place, change: Change): void {
  if (change.kind === 'entry') place.versions.set(change.accountId, change.version);
  else place.notes = change.seq;
}

export class EventHub {
  private readonly streams = new Map<string, Set<EventStream>>();
  private readonly feeding = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly ids: OpaqueIds;
  /** This instance in `wallet_event_listeners`. */
  private readonly instance = randomUUID();
  /** Per person, the listener row's writes in order (a stream closing and one opening at once). */
  private readonly listenerWrites = new Map<string, Promise<void>>();
  private closed = false;
  private readonly ctx: AppContext;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
    this.ids = opaqueIds(ctx.config);
    const db = ctx.db;
    db.listen('wallet_events', {
      notice: (payload) => this.feed(payload.split(':')[0] ?? ''),
      // Listening again after a break: every stream catches up from its own place.
      ready: () => {
        for (const userId of this.streams.keys()) this.feed(userId);
      },
      lost: () => {},
    }).catch(() => {});
    db.listen('sessions_changed', {
      notice: (userId) => void this.checkSessions(userId).catch(() => {}),
      ready: () => void this.checkSessions().catch(() => {}),
      lost: () => {},
    }).catch(() => {});
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS));
    for (const timer of this.timers) timer.unref();
  }

  get size(): number {
    let count = 0;
    for (const set of this.streams.values()) count += set.size;
    return count;
  }

  /**
   * Starts a stream: from `lastEventId` when everything after it is still there (resumed), else
   * from `replayMs` ago (what a page asked for before its stream opened), else from now; `started`
   * hears whether it resumed. Events made meanwhile are fed right after.
   */
  async open(
    stream: EventStream,
    lastEventId: string | null,
    replayMs: number,
    started: (resumed: boolean) => void,
  ): Promise<void> {
    const set = this.streams.get(stream.userId) ?? new Set<EventStream>();
    this.streams.set(stream.userId, set);
    // A person's tabs and devices, bounded: the oldest stream gives way (its app reconnects quietly).
    if (set.size >= MAX_STREAMS_PER_PERSON) set.values().next().value?.close();
    set.add(stream);
    const db = this.ctx.db;
    // Listening first: every change that commits after this row is visible sends its NOTIFY.
    await this.listenerWrite(stream.userId, () =>
      db.query(
        `INSERT INTO wallet_event_listeners (user_id, instance, seen_at) VALUES ($1, $2, now())
         ON CONFLICT (user_id, instance) DO UPDATE SET seen_at = now()`,
        [stream.userId, this.instance],
      ),
    );
    // Where a replay starts: entries carry the application's clock, stored notifications the database's.
    const since = replayMs > 0 ? new Date(this.ctx.clock.now().getTime() - replayMs) : null;
    const { rows } = await db.query<{ head: bigint | null; oldest: bigint | null; first_new: bigint | null }>(
      `SELECT (SELECT seq FROM wallet_event_heads WHERE user_id = $1) AS head,
         (SELECT min(seq) FROM wallet_events WHERE user_id = $1) AS oldest,
         (SELECT min(seq) FROM wallet_events WHERE user_id = $1 AND $2::int > 0
            AND created_at >= now() - make_interval(secs => $2::int / 1000.0)) AS first_new`,
      [stream.userId, replayMs],
    );
    // Each account's version before its first entry written since then (none without a replay).
    const { rows: accounts } = await db.query<Account & { before: bigint }>(
      `SELECT a.id, a.version, coalesce((SELECT min(e.account_version) - 1 FROM ledger_entries e
           WHERE e.account_id = a.id AND e.created_at >= $2::timestamptz), a.version) AS before
       FROM ledger_accounts a WHERE a.user_id = $1 ORDER BY a.created_at, a.id`,
      [stream.userId, since],
    );
    const head = rows[0]?.head ?? 0n;
    const oldest = rows[0]?.oldest ?? head + 1n;
    const firstNew = rows[0]?.first_new;
    const now: Place = {
      notes: firstNew != null && firstNew <= head ? firstNew - 1n : head,
      versions: new Map(accounts.map((a) => [a.id, a.before])),
    };
    const asked = parsePlaceId(lastEventId);
    let resumed = false;
    let place = now;
    if (asked && asked.length - 1 <= accounts.length) {
      const [notes, ...versions] = asked as [bigint, ...bigint[]];
      const notesKept = notes <= head && notes + 1n >= oldest;
      const versionsKnown = versions.every((version, index) => version <= accounts[index]!.version);
      if (notesKept && versionsKnown) {
        resumed = true;
        place = {
          notes,
          versions: new Map(accounts.map((a, index) => [a.id, versions[index] ?? 0n])),
        };
      }
    }
    // `ready` goes out before any event: nothing can run between these lines.
    started(resumed);
    stream.place = place;
    this.feed(stream.userId);
  }

  remove(stream: EventStream): void {
    const set = this.streams.get(stream.userId);
    if (!set?.delete(stream) || set.size > 0) return;
    this.streams.delete(stream.userId);
    void this.listenerWrite(stream.userId, async () => {
      // A stream of the person may have opened meanwhile: its row stays.
      if (this.streams.has(stream.userId)) return;
      await this.ctx.db.query('DELETE FROM wallet_event_listeners WHERE user_id = $1 AND instance = $2', [
        stream.userId,
        this.instance,
      ]);
    }).catch(() => {});
  }

  private listenerWrite(userId: string, write: () => Promise<unknown>): Promise<void> {
    const before = this.listenerWrites.get(userId) ?? Promise.resolve();
    const next = before.then(async () => {
      await write();
    });
    const settled = next.catch(() => {});
    this.listenerWrites.set(userId, settled);
    void settled.then(() => {
      if (this.listenerWrites.get(userId) === settled) this.listenerWrites.delete(userId);
    });
    return next;
  }

  /** The person's accounts in the order they were opened (the order of a place's versions). */
  private async accountsOf(userId: string): Promise<Account[]> {
    const { rows } = await this.ctx.db.query<Account>(
      'SELECT id, version FROM ledger_accounts WHERE user_id = $1 ORDER BY created_at, id',
      [userId],
    );
    return rows;
  }

  /** Feeds the person's streams; a notice during a feed runs it once more after. */
  feed(userId: string): void {
    if (!this.streams.has(userId) || this.closed) return;
    if (this.feeding.has(userId)) {
      this.again.add(userId);
      return;
    }
    const run = this.feedNow(userId)
      .catch(() => {})
      .finally(() => {
        this.feeding.delete(userId);
        if (this.again.delete(userId)) this.feed(userId);
      });
    this.feeding.set(userId, run);
  }

  private async feedNow(userId: string): Promise<void> {
    const db = this.ctx.db;
    for (;;) {
      const streams = [...(this.streams.get(userId) ?? [])].filter((s) => s.place !== null);
      if (streams.length === 0) return;
      const places = streams.map((s) => s.place!);
      const accounts = await this.accountsOf(userId);
      // From the furthest-behind stream on, per account and for notifications.
      const behind = accounts
        .map((a) => ({
          id: a.id,
          from: places.reduce((min, p) => {
            const at = p.versions.get(a.id) ?? 0n;
            return at < min ? at : min;
          }, a.version),
          to: a.version,
        }))
        .filter((a) => a.from < a.to);
      const notesFrom = places.reduce((min, p) => (p.notes < min ? p.notes : min), places[0]!.notes);
      const changes: Change[] = [];
      let full = false;
      if (behind.length > 0) {
        const { rows } = await db.query<{ id: string; account_id: string; account_version: bigint }>(
          `SELECT e.id, e.account_id, e.account_version
           FROM unnest($1::uuid[], $2::bigint[]) AS c (account_id, version)
           JOIN ledger_entries e ON e.account_id = c.account_id AND e.account_version > c.version
           ORDER BY e.id LIMIT $3`,
          [behind.map((a) => a.id), behind.map((a) => a.from), READ_BATCH],
        );
        full ||= rows.length === READ_BATCH;
        for (const row of rows)
          changes.push({
            kind: 'entry',
            entryId: String(row.id),
            accountId: row.account_id,
            version: BigInt(row.account_version),
          });
      }
      const { rows: notes } = await db.query<{ seq: bigint; ref: string }>(
        'SELECT seq, ref FROM wallet_events WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [userId, notesFrom, READ_BATCH],
      );
      full ||= notes.length === READ_BATCH;
      for (const row of notes)
        changes.push({ kind: 'notification', seq: BigInt(row.seq), notificationId: row.ref });

      for (const change of changes) {
        const texts = new Map<Language, { head: string; last: string }>();
        for (const stream of streams) {
          const place = stream.place;
          if (!place || isPast(place, change)) continue;
          let text = texts.get(stream.language);
          if (!text) {
            text = await this.render(userId, change, stream.language);
            texts.set(stream.language, text);
          }
          const next: Place = { notes: place.notes, versions: new Map(place.versions) };
          advance(next, change);
          if (stream.write(`${text.head}id: ${placeId(next, accounts)}\n${text.last}`)) stream.place = next;
        }
      }
      if (!full) return;
    }
  }

  /**
   * A change's wire text in a language: a group of named events, split before the last, which
   * carries the stream's new place (`id:`), so a cut mid-group resumes before the group.
   */
  private async render(
    userId: string,
    change: Change,
    language: Language,
  ): Promise<{ head: string; last: string }> {
    const db = this.ctx.db;
    const events: [string, unknown][] = [];
    if (change.kind === 'entry') {
      const found = await transactionOfEntry(db, userId, change.entryId);
      if (found) {
        events.push([
          'transaction',
          { ...entryTransactionView(found.row, language), balance: found.balance.balance },
        ]);
        events.push(['balance', found.balance]);
        const notice = await notificationOf(db, userId, { entryId: change.entryId }, language, this.ids);
        if (notice) events.push(['notification', notice]);
      }
    } else {
      const notice = await notificationOf(
        db,
        userId,
        { notificationId: change.notificationId },
        language,
        this.ids,
      );
      if (notice) events.push(['notification', notice]);
    }
    // Nothing to tell (not the person's, or gone): a comment still moves the place on.
    if (events.length === 0) return { head: '', last: ': nothing to tell\n\n' };
    const [name, data] = events.pop()!;
    return { head: events.map(([n, d]) => sseEvent(n, d)).join(''), last: sseEvent(name, data) };
  }

  /** Ends the streams whose sessions have ended: of one person (a notice), or of everyone. */
  async checkSessions(userId?: string): Promise<void> {
    const streams = userId
      ? [...(this.streams.get(userId) ?? [])]
      : [...this.streams.values()].flatMap((s) => [...s]);
    if (streams.length === 0) return;
    const now = this.ctx.clock.now();
    const { rows } = await this.ctx.db.query<{ id: string; revoked: boolean; ended: boolean }>(
      `SELECT x.id, s.id IS NULL OR s.revoked_at IS NOT NULL AS revoked,
         s.id IS NULL OR s.revoked_at IS NOT NULL OR s.expires_at <= $2 OR s.last_used_at <= $3 AS ended
       FROM unnest($1::uuid[]) AS x (id) LEFT JOIN sessions s ON s.id = x.id`,
      [
        [...new Set(streams.map((s) => s.sessionId))],
        now,
        new Date(now.getTime() - SESSION_IDLE_DAYS * 86_400_000),
      ],
    );
    const ended = new Map(rows.filter((row) => row.ended).map((row) => [row.id, row.revoked]));
    for (const stream of streams) {
      if (!ended.has(stream.sessionId)) continue;
      stream.write(sseEvent('session', { reason: ended.get(stream.sessionId) ? 'revoked' : 'expired' }));
      stream.close();
    }
  }

  private heartbeat(): void {
    for (const set of this.streams.values()) for (const stream of set) stream.write(': ping\n\n');
    void this.checkSessions().catch(() => {});
    void this.catchUp().catch(() => {});
  }

  /** Keeps this instance's listener rows fresh and feeds every person whose newest change a stream lacks. */
  private async catchUp(): Promise<void> {
    if (this.streams.size === 0) return;
    const db = this.ctx.db;
    const users = [...this.streams.keys()];
    await db.query('UPDATE wallet_event_listeners SET seen_at = now() WHERE instance = $1', [this.instance]);
    const { rows: accounts } = await db.query<{ user_id: string; id: string; version: bigint }>(
      'SELECT user_id, id, version FROM ledger_accounts WHERE user_id = ANY($1::uuid[])',
      [users],
    );
    const { rows: heads } = await db.query<{ user_id: string; seq: bigint }>(
      'SELECT user_id, seq FROM wallet_event_heads WHERE user_id = ANY($1::uuid[])',
      [users],
    );
    const behind = new Set<string>();
    for (const account of accounts)
      for (const stream of this.streams.get(account.user_id) ?? [])
        if (stream.place && (stream.place.versions.get(account.id) ?? 0n) < account.version)
          behind.add(account.user_id);
    for (const head of heads)
      for (const stream of this.streams.get(head.user_id) ?? [])
        if (stream.place && stream.place.notes < head.seq) behind.add(head.user_id);
    for (const userId of behind) this.feed(userId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const set of this.streams.values()) for (const stream of [...set]) stream.close();
    this.streams.clear();
    await Promise.all([...this.listenerWrites.values()]);
    await this.ctx.db
      .query('DELETE FROM wallet_event_listeners WHERE instance = $1', [this.instance])
      .catch(() => {});
  }
}

/**
 * Drops notifications' events older than KEEP_EVENTS_MS and listener rows of instances that died,
 * every minute on every instance from its start (whether or not it holds streams).
 */
/** Old notifications' events and gone instances' listener rows leave every minute: the `events-prune` job. */
export function definePruning(ctx: AppContext): void {
  ctx.jobs.define({
    name: 'events-prune',
    cron: `*/${Math.max(1, Math.round(PRUNE_EVERY_MS / 60_000))} * * * *`,
    run: () => pruneEvents(ctx.db),
  });
}

export async function pruneEvents(db: Db, now = new Date()): Promise<void> {
  await db.query('DELETE FROM wallet_events WHERE created_at < $1', [
    new Date(now.getTime() - KEEP_EVENTS_MS),
  ]);
  await db.query('DELETE FROM wallet_event_listeners WHERE seen_at < $1', [
    new Date(now.getTime() - LISTENER_STALE_MS),
  ]);
}

const HUB = Symbol('event hub');

export function eventHub(ctx: AppContext): EventHub {
  return remembered(ctx.db as Db, HUB, () => new EventHub(ctx));
}

export async function closeEventHub(ctx: AppContext): Promise<void> {
  const hub = ctx.db.memory.get(HUB) as EventHub | undefined;
  ctx.db.memory.delete(HUB);
  await hub?.close();
}
