/**
 * The support chat (docs/decisions/support.md#support-chat): a person writes to the operators from the app
 * (text and up to three images, an operation attached when opened from one), operators answer from
 * the back office. Every text is plain text (plain-text.ts): the calls refuse control characters.
 */
import { z } from 'zod';
import type { CallDef } from './calls.ts';
import type { OpsCallDef } from './ops.ts';
import { PlainText, plainTextCall } from './plain-text.ts';
import { Cursor, Id, Limit } from './schemas.ts';
import { SUPPORT_IMAGE_MAX_BYTES, SUPPORT_IMAGES_MAX, SUPPORT_TEXT_MAX } from './support-limits.ts';

/** Every call refuses control characters in any text it takes (plain-text.ts), as calls.ts's and ops.ts's do. */
const def = <T extends CallDef>(call: T): T => plainTextCall(call);
const opsDef = <T extends OpsCallDef>(call: T): T => plainTextCall(call);

export { SUPPORT_IMAGE_MAX_BYTES, SUPPORT_IMAGES_MAX, SUPPORT_TEXT_MAX } from './support-limits.ts';

const IMAGE_BASE64_MAX = Math.ceil(SUPPORT_IMAGE_MAX_BYTES / 3) * 4;
/** Three images as base64 and the text, with room for the JSON around them. */
export const SUPPORT_BODY_LIMIT = SUPPORT_IMAGES_MAX * IMAGE_BASE64_MAX + 64 * 1024;
export const SUPPORT_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const SupportImageUpload = z.strictObject({
  content_type: z.enum(SUPPORT_IMAGE_TYPES),
  data: z
    .string()
    .min(8)
    .max(IMAGE_BASE64_MAX)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/),
});
export const SupportSendRequest = z.strictObject({
  /** May be empty when images are sent. */
  text: PlainText(SUPPORT_TEXT_MAX, 0),
  /** The operation the conversation was opened from (its id as the history names it). */
  operation_id: Id.optional(),
  images: z.array(SupportImageUpload).max(SUPPORT_IMAGES_MAX).optional(),
});
export const SupportQuery = z.strictObject({ cursor: Cursor.optional(), limit: Limit.optional() });

/** The operation a message was written about, as the history shows it. */
export const SupportOperation = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  amount: z.string(),
  currency_code: z.string(),
  description: z.string(),
  created_at: z.string(),
});
export const SupportMessage = z.object({
  id: z.string(),
  author: z.enum(['person', 'operator']),
  text: z.string(),
  /** The server's own JPEGs, as data: URLs. */
  images: z.array(z.string()),
  operation: SupportOperation.nullable(),
  created_at: z.string(),
  /** A person's message: an operator has read it; an operator's: the person has. */
  read: z.boolean(),
});
export const SupportConversationStatus = z.enum(['none', 'open', 'closed']);
export const SupportMessagesAnswer = z.object({
  results: z.array(SupportMessage),
  next: z.string().nullable(),
  /** Operators' messages the person has not read. */
  unread: z.number().int(),
  status: SupportConversationStatus,
});
/** Small on purpose: the answer is stored with the Idempotency-Key; the list shows the message. */
export const SupportSendAnswer = z.object({
  status: z.literal('success'),
  id: z.string(),
  message: z.string(),
});
export const SupportReadAnswer = z.object({ status: z.literal('success'), unread: z.literal(0) });

export const supportCalls = {
  supportMessages: def({
    method: 'GET',
    path: '/v2/wallet/support/messages',
    access: 'token',
    tag: 'support',
    summary: 'The conversation with support, newest first, with the count of unread answers',
    query: SupportQuery,
    answer: SupportMessagesAnswer,
  }),
  supportSend: def({
    method: 'POST',
    path: '/v2/wallet/support/messages',
    access: 'token',
    tag: 'support',
    summary: 'Write to support: text and up to three images (re-encoded), an operation attached',
    body: SupportSendRequest,
    answer: SupportSendAnswer,
    idempotent: true,
    bodyLimit: SUPPORT_BODY_LIMIT,
  }),
  supportRead: def({
    method: 'POST',
    path: '/v2/wallet/support/read',
    access: 'token',
    tag: 'support',
    summary: 'Mark the answers of support as read',
    answer: SupportReadAnswer,
  }),
} as const satisfies Record<string, CallDef>;

// ---------- the back office ----------

export const OpsSupportQuery = z.strictObject({
  status: z.enum(['open', 'closed']).optional(),
  cursor: Cursor.optional(),
  limit: Limit.optional(),
});
export const OpsSupportReply = z.strictObject({ text: PlainText(SUPPORT_TEXT_MAX) });
const OpsIdParams = z.strictObject({ id: Id });

export const opsSupportCalls = {
  supportConversations: opsDef({
    method: 'GET',
    path: '/ops/v1/support/conversations',
    permission: 'support',
    query: OpsSupportQuery,
  }),
  supportConversation: opsDef({
    method: 'GET',
    path: '/ops/v1/support/conversations/:id/messages',
    permission: 'support',
    params: OpsIdParams,
    query: z.strictObject({ cursor: Cursor.optional(), limit: Limit.optional() }),
  }),
  supportReply: opsDef({
    method: 'POST',
    path: '/ops/v1/support/conversations/:id/messages',
    permission: 'support',
    params: OpsIdParams,
    body: OpsSupportReply,
  }),
  supportClose: opsDef({
    method: 'POST',
    path: '/ops/v1/support/conversations/:id/close',
    permission: 'support',
    params: OpsIdParams,
  }),
  /** `text/event-stream`: `conversation` {id} whenever one changes, on any instance. */
  supportEvents: opsDef({ method: 'GET', path: '/ops/v1/support/events', permission: 'support' }),
} as const satisfies Record<string, OpsCallDef>;

/** Saved answers an operator picks from, in both languages (the reply is sent in the one chosen). */
export const SUPPORT_SAVED_ANSWERS = [
  {
    id: 'greeting',
    ru: 'Здравствуйте! Я помогу разобраться.',
    en: 'Hello! I will help you sort this out.',
  },
  {
    id: 'payout_checking',
    ru: 'Мы проверяем выплату в банке. Деньги не потеряются: если выплата не пройдёт, они вернутся на счёт.',
    en: 'We are checking the payout with the bank. The money is safe: if the payout fails, it returns to your account.',
  },
  {
    id: 'card_declined',
    ru: 'Банк карты отклонил операцию. Попробуйте другую карту или обратитесь в банк, выпустивший карту.',
    en: 'The card’s bank declined the operation. Please try another card or contact the bank that issued it.',
  },
  {
    id: 'identify',
    ru: 'Чтобы снять ограничение, пройдите идентификацию: Настройки → Идентификация.',
    en: 'To lift the limit, please verify your identity: Settings → Identification.',
  },
  {
    id: 'done',
    ru: 'Готово. Если останутся вопросы, напишите нам.',
    en: 'Done. If you have any other questions, write to us.',
  },
] as const;
