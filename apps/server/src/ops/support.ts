/**
 * The support chat in the back office (docs/decisions/support.md#support-chat): the queue of open
 * conversations (those waiting first, the longest waiting first, with the wait), a conversation beside the
 * person's card, a reply (taken by the first operator who answers) and closing, each reply and close with its
 * audit line in one transaction; and the operators' live stream of conversations that changed, fed by
 * `support_changed` from every instance.
 */
import type { Language } from '@e-wallet/contract';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { remembered } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { openEventStream } from '../http/event-stream.ts';
import { opaqueIds } from '../http/opaque-id.ts';
import {
  closeConversation,
  conversationById,
  operatorMessages,
  operatorReply,
  SUPPORT_CHANNEL,
} from '../modules/support/index.ts';
import { writeAudit } from './audit.ts';
import type { Operator } from './operators.ts';

const DEFAULT_LIMIT = 50;
/** A comment this often keeps proxies and the back office's watchdog sure the stream lives. */
const HEARTBEAT_MS = 20_000;

interface QueueRow {
  id: string;
  user_id: string;
  status: 'open' | 'closed';
  waiting_since: Date | null;
  last_message_at: Date;
  closed_at: Date | null;
  assigned_to: string | null;
  assigned_email: string | null;
  first_name: string;
  last_name: string;
  phone: string;
  last_text: string | null;
  last_author: 'person' | 'operator' | null;
  unread: number;
  answered: boolean;
  sort_at: Date;
}

/**
 * `open` (the default): waiting conversations first, the longest waiting first, then the answered
 * ones by their last message; `closed`: the newest closed first. A page is `{results, next}`.
 */
export async function conversationsPage(
  ctx: AppContext,
  query: { status?: 'open' | 'closed' | undefined; cursor?: string | undefined; limit?: string | undefined },
): Promise<{ results: unknown[]; next: string | null }> {
  const ids = opaqueIds(ctx.config);
  const after = query.cursor ? decodeCursor(query.cursor, ids) : null;
  const limit = Number(query.limit ?? DEFAULT_LIMIT);
  const open = (query.status ?? 'open') === 'open';
  const columns = `c.id, c.user_id, c.status, c.waiting_since, c.last_message_at, c.closed_at, c.assigned_to,
    o.email AS assigned_email, u.first_name, u.last_name, u.phone, last.text AS last_text, last.author AS last_author,
    (SELECT count(*)::int FROM support_messages m WHERE m.conversation_id = c.id AND m.author = 'person'
       AND (c.operator_read_at IS NULL OR m.created_at > c.operator_read_at)) AS unread`;
  const joins = `FROM support_conversations c JOIN users u ON u.id = c.user_id
    LEFT JOIN operators o ON o.id = c.assigned_to
    LEFT JOIN LATERAL (SELECT m.text, m.author FROM support_messages m WHERE m.conversation_id = c.id
      ORDER BY m.created_at DESC, m.id DESC LIMIT 1) last ON true`;
  const { rows } = open
    ? await ctx.db.query<QueueRow>(
        `SELECT ${columns}, (c.waiting_since IS NULL) AS answered, coalesce(c.waiting_since, c.last_message_at) AS sort_at
         ${joins}
         WHERE c.status = 'open' AND ($1::boolean IS NULL
           OR ((c.waiting_since IS NULL), coalesce(c.waiting_since, c.last_message_at), c.id) > ($1, $2::timestamptz, $3::uuid))
         ORDER BY (c.waiting_since IS NULL), coalesce(c.waiting_since, c.last_message_at), c.id LIMIT $4`,
        [after ? after.source === 'a' : null, after?.createdAt ?? null, after?.id ?? null, limit + 1],
      )
    : await ctx.db.query<QueueRow>(
        `SELECT ${columns}, true AS answered, c.closed_at AS sort_at ${joins}
         WHERE c.status = 'closed' AND ($1::timestamptz IS NULL OR (c.closed_at, c.id) < ($1::timestamptz, $2::uuid))
         ORDER BY c.closed_at DESC, c.id DESC LIMIT $3`,
        [after?.createdAt ?? null, after?.id ?? null, limit + 1],
      );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const now = ctx.clock.now().getTime();
  return {
    results: page.map(({ answered: _answered, sort_at: _sortAt, ...row }) => ({
      ...row,
      wait_seconds: row.waiting_since
        ? Math.max(0, Math.floor((now - row.waiting_since.getTime()) / 1000))
        : null,
    })),
    next:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.sort_at, id: last.id, source: last.answered ? 'a' : 'w' }, ids)
        : null,
  };
}

export async function conversationMessages(
  ctx: AppContext,
  id: string,
  query: { cursor?: string | undefined; limit?: string | undefined },
  language: Language,
): Promise<unknown> {
  const { conversation, results, next } = await operatorMessages(ctx, id, query, language);
  const now = ctx.clock.now().getTime();
  return {
    conversation: {
      id: conversation.id,
      user_id: conversation.user_id,
      status: conversation.status,
      waiting_since: conversation.waiting_since,
      wait_seconds: conversation.waiting_since
        ? Math.max(0, Math.floor((now - conversation.waiting_since.getTime()) / 1000))
        : null,
      assigned_to: conversation.assigned_to,
    },
    results,
    next,
  };
}

/** An operator's answer and its audit line, in one transaction. */
export async function replyToConversation(ctx: AppContext, by: Operator, id: string, text: string) {
  return ctx.db.tx(async (q) => {
    const { conversation, messageId } = await operatorReply(q, ctx, by.id, id, text);
    await writeAudit(q, ctx, by, {
      action: 'support_reply',
      objectType: 'support_conversation',
      objectId: id,
      userId: conversation.user_id,
      after: { message_id: messageId, text },
    });
    return { id: messageId, status: 'sent' };
  });
}

export async function closeSupportConversation(ctx: AppContext, by: Operator, id: string) {
  return ctx.db.tx(async (q) => {
    const before = await conversationById(q, id);
    if (!before) throw new AppError('NOT_FOUND');
    const closed = await closeConversation(q, ctx, id);
    if (!closed) throw new AppError('SUPPORT_NOT_OPEN');
    await writeAudit(q, ctx, by, {
      action: 'support_close',
      objectType: 'support_conversation',
      objectId: id,
      userId: closed.user_id,
      before: { status: before.status },
      after: { status: 'closed' },
    });
    return { id, status: 'closed' };
  });
}

// ---------- the operators' live stream ----------

interface Stream {
  write(text: string): void;
  end(): void;
}
interface Streams {
  open: Set<Stream>;
  /** Resolved once this instance listens: a stream says `ready` only then, so nothing is missed after it. */
  listening: Promise<void>;
}

const STREAMS = Symbol('ops support streams');

/** This instance's operators' streams, following `support_changed` from every instance. */
function streamsOf(ctx: AppContext): Streams {
  return remembered(ctx.db, STREAMS, () => {
    const open = new Set<Stream>();
    const listening = ctx.db
      .listen(SUPPORT_CHANNEL, {
        notice: (conversationId) => {
          const text = `event: conversation\ndata: ${JSON.stringify({ id: conversationId })}\n\n`;
          for (const stream of open) stream.write(text);
        },
        // After a break the back office asks its lists again.
        ready: () => {
          for (const stream of open) stream.write('event: ready\ndata: {}\n\n');
        },
        lost: () => {},
      })
      .catch(() => {});
    return { open, listening };
  });
}

/** `text/event-stream` of conversations that changed (`conversation` {id}), for a signed-in operator. */
export async function supportEvents(ctx: AppContext, reply: FastifyReply): Promise<void> {
  const streams = streamsOf(ctx);
  const raw = openEventStream(reply);
  const stream: Stream = {
    write: (text) => {
      if (!raw.destroyed) raw.write(text);
    },
    end: () => raw.end(),
  };
  const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  streams.open.add(stream);
  raw.on('close', () => {
    clearInterval(heartbeat);
    streams.open.delete(stream);
  });
  raw.write('retry: 3000\n\n');
  await streams.listening;
  stream.write('event: ready\ndata: {}\n\n');
}

/** Ends this instance's operators' streams (the back office's server is closing). */
export function closeSupportEvents(ctx: AppContext): void {
  const streams = ctx.db.memory.get(STREAMS) as Streams | undefined;
  for (const stream of streams?.open ?? []) stream.end();
}
