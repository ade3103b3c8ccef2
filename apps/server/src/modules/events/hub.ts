/**
 * The open event streams of this instance and what feeds them (docs/decisions.md section 11).
 *
 * - Every person's changes are numbered events in `wallet_events`, written by triggers in the
 *   transaction that made them (db/functions/wallet_events.sql). Their NOTIFY reaches every instance
 *   at commit; the instance holding the person's streams reads the events after each stream's last
 *   number and writes them. A lost listening connection is caught up when it listens again, so no
 *   event is skipped: a stream only ever moves past a number it has written.
 * - A `sessions_changed` notice (db/functions/sessions.sql) makes the person's streams check their
 *   sessions: an ended one gets `session` and closes. A heartbeat checks them all too (expiry by time).
 * - The people whose streams this instance holds are rows of `wallet_event_listeners` (refreshed with
 *   the heartbeat): only their events send NOTIFY (migration 0200). A change whose transaction
 *   checked for listeners just before a stream's row was committed sends none; the heartbeat's
 *   catch-up (every stream against its person's newest number) delivers it then.
 * - One hub per database (per instance), made by the events route on first use.
 */
import { randomUUID } from 'node:crypto';
import type { Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { type Db, remembered } from '../../db/client.ts';
import { type OpaqueIds, opaqueIds } from '../../http/opaque-id.ts';
import { SESSION_IDLE_DAYS } from '../../sessions/tokens.ts';
import { notificationOf } from '../notifications/service.ts';
import { entryTransactionView, transactionOfEntry } from '../wallet/service.ts';

/** A comment line at least this often keeps proxies and the app's watchdog sure the stream lives. */
export const HEARTBEAT_MS = 20_000;
/** Events are kept this long for resuming (the promise is 5 minutes). */
export const KEEP_EVENTS_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** A listener row not refreshed for this long belongs to an instance that is gone. */
const LISTENER_STALE_MS = 3 * 60_000;
const READ_BATCH = 200;
/** A client this far behind is cut off; it resumes from its last event. */
const MAX_BUFFERED_BYTES = 1 << 20;

export interface EventStream {
  readonly userId: string;
  readonly sessionId: string;
  readonly language: Language;
  /** The number of the last event written; null until the stream has started. */
  last: bigint | null;
  /** Writes text; false when the client is gone or too far behind (the stream is then closed). */
  write(text: string): boolean;
  close(): void;
}

interface EventRow {
  seq: bigint;
  kind: 'entry' | 'notification';
  ref: string;
}

/** One event of the stream in the text/event-stream format; `id` only on the last of a group. */
export function sseEvent(name: string, data: unknown, id?: bigint): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
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
      // Listening again after a break: every stream catches up from its own last event.
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
   * Starts a stream: after `lastEventId` when the events after it are all still kept (resumed), else
   * from now; `started` hears which. Events made meanwhile are fed right after.
   */
  async open(
    stream: EventStream,
    lastEventId: bigint | null,
    started: (resumed: boolean) => void,
  ): Promise<void> {
    const set = this.streams.get(stream.userId) ?? new Set<EventStream>();
    this.streams.set(stream.userId, set);
    set.add(stream);
    // Listening first: every change that commits after this row is visible sends its NOTIFY.
    await this.listenerWrite(stream.userId, () =>
      this.ctx.db.query(
        `INSERT INTO wallet_event_listeners (user_id, instance, seen_at) VALUES ($1, $2, now())
         ON CONFLICT (user_id, instance) DO UPDATE SET seen_at = now()`,
        [stream.userId, this.instance],
      ),
    );
    const { rows } = await this.ctx.db.query<{ head: bigint | null; oldest: bigint | null }>(
      `SELECT (SELECT seq FROM wallet_event_heads WHERE user_id = $1) AS head,
         (SELECT min(seq) FROM wallet_events WHERE user_id = $1) AS oldest`,
      [stream.userId],
    );
    const head = rows[0]?.head ?? 0n;
    const oldest = rows[0]?.oldest ?? head + 1n;
    const resumed = lastEventId !== null && lastEventId <= head && lastEventId + 1n >= oldest;
    // `ready` goes out before any event: nothing can run between these lines.
    started(resumed);
    stream.last = resumed ? lastEventId : head;
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
    for (;;) {
      const streams = [...(this.streams.get(userId) ?? [])].filter((s) => s.last !== null);
      if (streams.length === 0) return;
      const from = streams.reduce((min, s) => (s.last! < min ? s.last! : min), streams[0]!.last!);
      const { rows } = await this.ctx.db.query<EventRow>(
        'SELECT seq, kind, ref FROM wallet_events WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [userId, from, READ_BATCH],
      );
      for (const row of rows) {
        const texts = new Map<Language, string>();
        for (const stream of streams) {
          if (stream.last === null || stream.last >= row.seq) continue;
          let text = texts.get(stream.language);
          if (text === undefined) {
            text = await this.render(userId, row, stream.language);
            texts.set(stream.language, text);
          }
          if (stream.write(text)) stream.last = row.seq;
        }
      }
      if (rows.length < READ_BATCH) return;
    }
  }

  /** An event's wire text in a language: one group of named events, the last carrying its number. */
  private async render(userId: string, row: EventRow, language: Language): Promise<string> {
    const db = this.ctx.db;
    const events: [string, unknown][] = [];
    if (row.kind === 'entry') {
      const found = await transactionOfEntry(db, userId, row.ref);
      if (found) {
        events.push([
          'transaction',
          { ...entryTransactionView(found.row, language), balance: found.balance.balance },
        ]);
        events.push(['balance', found.balance]);
        const notice = await notificationOf(db, userId, { entryId: row.ref }, language, this.ids);
        if (notice) events.push(['notification', notice]);
      }
    } else {
      const notice = await notificationOf(db, userId, { notificationId: row.ref }, language, this.ids);
      if (notice) events.push(['notification', notice]);
    }
    if (events.length === 0) return `id: ${row.seq}\n: nothing to tell\n\n`;
    return events
      .map(([name, data], index) => sseEvent(name, data, index === events.length - 1 ? row.seq : undefined))
      .join('');
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

  /** Keeps this instance's listener rows fresh and feeds every person whose newest event a stream lacks. */
  private async catchUp(): Promise<void> {
    if (this.streams.size === 0) return;
    const db = this.ctx.db;
    await db.query('UPDATE wallet_event_listeners SET seen_at = now() WHERE instance = $1', [this.instance]);
    const { rows } = await db.query<{ user_id: string; seq: bigint }>(
      'SELECT user_id, seq FROM wallet_event_heads WHERE user_id = ANY($1::uuid[])',
      [[...this.streams.keys()]],
    );
    for (const { user_id: userId, seq } of rows) {
      const behind = [...(this.streams.get(userId) ?? [])].some((s) => s.last !== null && s.last < seq);
      if (behind) this.feed(userId);
    }
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
 * Drops events older than KEEP_EVENTS_MS, every minute on every instance from its start (whether or
 * not it holds streams): the outbox stays small. A push not yet sent is kept.
 */
export function startPruning(db: Db): () => void {
  const timer = setInterval(() => void pruneEvents(db).catch(() => {}), PRUNE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function pruneEvents(db: Db, now = new Date()): Promise<void> {
  await db.query('DELETE FROM wallet_events WHERE created_at < $1 AND NOT push_due', [
    new Date(now.getTime() - KEEP_EVENTS_MS),
  ]);
  // Rows of an instance that died without closing (a live one refreshes them with every heartbeat).
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

export { MAX_BUFFERED_BYTES };
