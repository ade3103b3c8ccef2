/**
 * The support chat, the person's side and what the back office shares
 * (docs/decisions/support.md#support-chat):
 *
 *   supportMessages(ctx, userId, query, language)  the conversation, newest first, with the unread count
 *   sendSupportMessage(ctx, userId, body, key, language)  a message: text (plain, checked by the contract),
 *        up to three images drawn anew by the identification's re-encoder, the operation attached when
 *        it is the person's; keyed (Idempotency-Key through `keyedCall`) and limited per person
 *   markSupportRead(ctx, userId)  the person has read the operators' answers (their read receipt)
 *   operatorMessages / operatorReply / closeConversation   the back office's side (ops/support.ts)
 *
 * Every change says `support_changed` (NOTIFY, the conversation's id) to the instances holding operators'
 * streams; an operator's reply reaches the person as a stored notification, which the live wallet streams
 * and pushes (docs/decisions/live-wallet.md#the-live-wallet).
 */
import { randomUUID } from 'node:crypto';
import {
  type AnswerOf,
  type BodyOut,
  type CurrencyCode,
  displayText,
  fieldLabel,
  formatAmount,
  type Language,
  SUPPORT_IMAGE_MAX_BYTES,
} from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { type Cursor, decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { reencodePhoto } from '../identification/index.ts';
import { hit } from '../limits/index.ts';
import { keyedCall, requestHash } from '../money-calls/index.ts';
import { notify } from '../notifications/index.ts';

export type SupportMessageView = AnswerOf<'supportMessages'>['results'][number];
export type ConversationStatus = 'none' | 'open' | 'closed';

/** The channel of the operators' streams: a conversation changed (a message, a read, a close). */
export const SUPPORT_CHANNEL = 'support_changed';
const DEFAULT_PAGE = 30;
const HOUR_S = 3600;

const SENT: Record<Language, string> = { ru: 'Сообщение отправлено', en: 'The message is sent' };

export interface ConversationRow {
  id: string;
  user_id: string;
  status: 'open' | 'closed';
  waiting_since: Date | null;
  assigned_to: string | null;
  last_message_at: Date;
  person_read_at: Date | null;
  operator_read_at: Date | null;
  created_at: Date;
  closed_at: Date | null;
}

interface MessageRow {
  id: string;
  author: 'person' | 'operator';
  text: string;
  operation_id: string | null;
  created_at: Date;
  images: string[] | null;
  op_kind: string | null;
  op_status: string | null;
  op_amount: bigint | null;
  op_currency: CurrencyCode | null;
  op_description: { debit?: Record<Language, string>; credit?: Record<Language, string> } | null;
  op_created_at: Date | null;
}

const STATUS_WORDS: Record<string, string> = { posted: 'complete', pending: 'pending', voided: 'failed' };

export async function conversationOfPerson(q: Queryable, userId: string): Promise<ConversationRow | null> {
  const { rows } = await q.query<ConversationRow>('SELECT * FROM support_conversations WHERE user_id = $1', [
    userId,
  ]);
  return rows[0] ?? null;
}

export async function conversationById(q: Queryable, id: string): Promise<ConversationRow | null> {
  const { rows } = await q.query<ConversationRow>('SELECT * FROM support_conversations WHERE id = $1', [id]);
  return rows[0] ?? null;
}

function cursorOf(ctx: AppContext, query: { cursor?: string | undefined }): Cursor | null {
  return query.cursor ? decodeCursor(query.cursor, opaqueIds(ctx.config)) : null;
}

/** A page of a conversation's messages, newest first, read as the given side sees receipts. */
async function messagesPage(
  ctx: AppContext,
  conversation: ConversationRow,
  query: { cursor?: string | undefined; limit?: string | undefined },
  language: Language,
  // Read by the caller: a bad cursor is refused whether or not there is a conversation yet.
  after: Cursor | null,
): Promise<{ results: SupportMessageView[]; next: string | null }> {
  const ids = opaqueIds(ctx.config);
  const limit = Number(query.limit ?? DEFAULT_PAGE);
  // The attached operation as the person's history shows it: the person's opening entry of the transfer.
  const { rows } = await ctx.db.query<MessageRow>(
    `SELECT m.id, m.author, m.text, m.operation_id, m.created_at,
       (SELECT array_agg('data:' || i.content_type || ';base64,' || encode(i.data, 'base64') ORDER BY i.position)
          FROM support_images i WHERE i.message_id = m.id) AS images,
       op.kind AS op_kind, op.status AS op_status, op.amount AS op_amount, op.currency AS op_currency,
       op.description AS op_description, op.created_at AS op_created_at
     FROM support_messages m
     LEFT JOIN LATERAL (
       SELECT e.kind, t.status, e.amount, e.currency, t.description, e.created_at
       FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
       WHERE m.operation_id IS NOT NULL AND e.transfer_id = m.operation_id AND e.user_id = $2
         AND e.phase IN ('single', 'hold')
       LIMIT 1) op ON true
     WHERE m.conversation_id = $1
       AND ($3::timestamptz IS NULL OR (m.created_at, m.id) < ($3::timestamptz, $4::uuid))
     ORDER BY m.created_at DESC, m.id DESC LIMIT $5`,
    [conversation.id, conversation.user_id, after?.createdAt ?? null, after?.id ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    results: page.map((row) => messageView(row, conversation, language)),
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, ids) : null,
  };
}

function messageView(row: MessageRow, conversation: ConversationRow, language: Language): SupportMessageView {
  // Base64 of stored JPEGs: PostgreSQL's encode() breaks lines every 76 characters.
  const images = (row.images ?? []).map((url) => url.replace(/\n/g, ''));
  const readAt = row.author === 'person' ? conversation.operator_read_at : conversation.person_read_at;
  const side = row.op_amount !== null && row.op_amount < 0n ? 'debit' : 'credit';
  return {
    id: row.id,
    author: row.author,
    text: row.text,
    images,
    operation:
      row.operation_id && row.op_kind && row.op_amount !== null && row.op_currency
        ? {
            id: row.operation_id,
            kind: row.op_kind,
            status: STATUS_WORDS[row.op_status ?? ''] ?? row.op_status ?? '',
            amount: formatAmount(row.op_amount, row.op_currency),
            currency_code: row.op_currency,
            description: displayText(row.op_description?.[side]?.[language] ?? ''),
            created_at: (row.op_created_at ?? row.created_at).toISOString(),
          }
        : null,
    created_at: row.created_at.toISOString(),
    read: readAt !== null && readAt.getTime() >= row.created_at.getTime(),
  };
}

async function unreadOf(q: Queryable, conversation: ConversationRow | null): Promise<number> {
  if (!conversation) return 0;
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM support_messages
     WHERE conversation_id = $1 AND author = 'operator' AND ($2::timestamptz IS NULL OR created_at > $2)`,
    [conversation.id, conversation.person_read_at],
  );
  return rows[0]?.n ?? 0;
}

export async function supportMessages(
  ctx: AppContext,
  userId: string,
  query: { cursor?: string | undefined; limit?: string | undefined },
  language: Language,
): Promise<AnswerOf<'supportMessages'>> {
  const after = cursorOf(ctx, query);
  const conversation = await conversationOfPerson(ctx.db, userId);
  if (!conversation) return { results: [], next: null, unread: 0, status: 'none' };
  const page = await messagesPage(ctx, conversation, query, language, after);
  return { ...page, unread: await unreadOf(ctx.db, conversation), status: conversation.status };
}

/** The images as the server draws them anew, or FIELD_INVALID naming the images. */
async function reencodedImages(
  images: BodyOut<'supportSend'>['images'],
  language: Language,
): Promise<Array<{ contentType: string; data: Buffer }>> {
  const out: Array<{ contentType: string; data: Buffer }> = [];
  for (const image of images ?? []) {
    const bytes = Buffer.from(image.data, 'base64');
    const photo =
      bytes.length > 0 && bytes.length <= SUPPORT_IMAGE_MAX_BYTES
        ? await reencodePhoto(bytes, image.content_type)
        : null;
    if (!photo) throw new AppError('FIELD_INVALID', { field: fieldLabel('images', language) });
    out.push(photo);
  }
  return out;
}

/** Whether the operation (a ledger transfer) is one of the person's. */
async function ownOperation(q: Queryable, userId: string, operationId: string): Promise<boolean> {
  const { rows } = await q.query(
    'SELECT 1 FROM ledger_entries WHERE transfer_id = $1 AND user_id = $2 LIMIT 1',
    [operationId, userId],
  );
  return rows.length > 0;
}

export async function sendSupportMessage(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'supportSend'>,
  idempotencyKey: string | null,
  language: Language,
): Promise<AnswerOf<'supportSend'>> {
  const text = body.text.trim();
  if (!text && !body.images?.length)
    throw new AppError('FIELD_REQUIRED', { field: fieldLabel('text', language) });
  if (body.operation_id && !(await ownOperation(ctx.db, userId, body.operation_id)))
    throw new AppError('OPERATION_NOT_FOUND');
  // Decoded and drawn anew before the transaction: what is kept is the server's own JPEG.
  const images = await reencodedImages(body.images, language);
  const id = randomUUID();
  const scope = {
    userId,
    call: 'supportSend' as const,
    key: idempotencyKey,
    requestHash: requestHash(ctx, body),
  };
  return keyedCall(ctx, scope, { status: 'success' as const, id, message: SENT[language] }, async (q) => {
    const now = ctx.clock.now();
    // Per person, in the message's transaction: a refused message counts nothing.
    const perHour = await hit(q, `support:${userId}`, HOUR_S, ctx.config.SUPPORT_MESSAGES_PER_HOUR, now);
    if (!perHour.allowed) throw new AppError('RATE_LIMITED');
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO support_conversations AS c (id, user_id, status, waiting_since, last_message_at, created_at)
       VALUES ($1, $2, 'open', $3, $3, $3)
       ON CONFLICT (user_id) DO UPDATE SET status = 'open', closed_at = NULL, last_message_at = $3,
         waiting_since = coalesce(c.waiting_since, $3)
       RETURNING id`,
      [randomUUID(), userId, now],
    );
    const conversationId = rows[0]!.id;
    await q.query(
      `INSERT INTO support_messages (id, conversation_id, author, text, operation_id, created_at)
       VALUES ($1, $2, 'person', $3, $4, $5)`,
      [id, conversationId, text, body.operation_id ?? null, now],
    );
    for (const [position, image] of images.entries())
      await q.query(
        'INSERT INTO support_images (message_id, position, content_type, data) VALUES ($1, $2, $3, $4)',
        [id, position, image.contentType, image.data],
      );
    await q.query('SELECT pg_notify($1, $2)', [SUPPORT_CHANNEL, conversationId]);
  });
}

export async function markSupportRead(ctx: AppContext, userId: string): Promise<void> {
  const { rows } = await ctx.db.query<{ id: string; newly_read: boolean }>(
    `WITH before AS (
       SELECT c.id, EXISTS (SELECT 1 FROM support_messages m WHERE m.conversation_id = c.id AND m.author = 'operator'
         AND (c.person_read_at IS NULL OR m.created_at > c.person_read_at)) AS newly_read
       FROM support_conversations c WHERE c.user_id = $1 FOR UPDATE)
     UPDATE support_conversations c SET person_read_at = $2 FROM before WHERE c.id = before.id
     RETURNING c.id, before.newly_read`,
    [userId, ctx.clock.now()],
  );
  if (rows[0]?.newly_read) await ctx.db.query('SELECT pg_notify($1, $2)', [SUPPORT_CHANNEL, rows[0].id]);
}

// ---------- the back office's side ----------

/** A conversation's messages for an operator, who has now read the person's (their read receipt). */
export async function operatorMessages(
  ctx: AppContext,
  id: string,
  query: { cursor?: string | undefined; limit?: string | undefined },
  language: Language,
): Promise<{ conversation: ConversationRow; results: SupportMessageView[]; next: string | null }> {
  // Told to the streams only when it read something new: every operator's screen asks again on a
  // notice, and a read that notified every time would answer itself.
  const { rows } = await ctx.db.query<ConversationRow & { newly_read: boolean }>(
    `WITH before AS (
       SELECT c.id, EXISTS (SELECT 1 FROM support_messages m WHERE m.conversation_id = c.id AND m.author = 'person'
         AND (c.operator_read_at IS NULL OR m.created_at > c.operator_read_at)) AS newly_read
       FROM support_conversations c WHERE c.id = $1 FOR UPDATE)
     UPDATE support_conversations c SET operator_read_at = $2 FROM before WHERE c.id = before.id
     RETURNING c.*, before.newly_read`,
    [id, ctx.clock.now()],
  );
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND');
  const { newly_read: newlyRead, ...conversation } = row;
  if (newlyRead) await ctx.db.query('SELECT pg_notify($1, $2)', [SUPPORT_CHANNEL, id]);
  return { conversation, ...(await messagesPage(ctx, conversation, query, language, cursorOf(ctx, query))) };
}

/**
 * An operator's answer, in `q` (the caller's transaction, with its audit line): the conversation is
 * taken by the first operator who answers, stops waiting, and the person is told (stored
 * notification: the live stream and a push).
 */
export async function operatorReply(
  q: Queryable,
  ctx: AppContext,
  operatorId: string,
  id: string,
  text: string,
): Promise<{ conversation: ConversationRow; messageId: string }> {
  const now = ctx.clock.now();
  const { rows } = await q.query<ConversationRow>(
    `UPDATE support_conversations SET waiting_since = NULL, last_message_at = $3, status = 'open', closed_at = NULL,
       assigned_to = coalesce(assigned_to, $2), operator_read_at = $3
     WHERE id = $1 RETURNING *`,
    [id, operatorId, now],
  );
  const conversation = rows[0];
  if (!conversation) throw new AppError('NOT_FOUND');
  const messageId = randomUUID();
  await q.query(
    `INSERT INTO support_messages (id, conversation_id, author, operator_id, text, created_at)
     VALUES ($1, $2, 'operator', $3, $4, $5)`,
    [messageId, id, operatorId, text, now],
  );
  await notify(q, conversation.user_id, 'support', 'support_reply', {}, now);
  await q.query('SELECT pg_notify($1, $2)', [SUPPORT_CHANNEL, id]);
  return { conversation, messageId };
}

/** Closes an open conversation in `q`; null when it is not open. */
export async function closeConversation(
  q: Queryable,
  ctx: AppContext,
  id: string,
): Promise<ConversationRow | null> {
  const { rows } = await q.query<ConversationRow>(
    `UPDATE support_conversations SET status = 'closed', closed_at = $2, waiting_since = NULL
     WHERE id = $1 AND status = 'open' RETURNING *`,
    [id, ctx.clock.now()],
  );
  if (rows[0]) await q.query('SELECT pg_notify($1, $2)', [SUPPORT_CHANNEL, id]);
  return rows[0] ?? null;
}
