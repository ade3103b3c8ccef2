/**
 * Signed notifications to a merchant's URL (docs/decisions/merchants.md#merchants): written in the
 * transaction of their event (`recordNotification`), then delivered by the job system's
 * `merchant-notify` queue with retries and backoff for about a day (or, where no job system runs here,
 * at once, once). The body is `{type: "notification", event, object}`; the header
 * `Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the merchant's webhook secret. Requests
 * follow the push sender's outbound rules (http/outbound.ts): no redirects, public addresses only, a short
 * time-out.
 *
 *   rotateSecret(ctx, userId)                 POST /v2/wallet/merchant/webhook-secret
 *   notificationLog(ctx, userId)              GET  /v2/wallet/merchant/notifications
 *   resendNotification(ctx, userId, id)       POST /v2/wallet/merchant/notifications/:id/resend
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { AnswerOf } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { OutboundRefused, outboundRequest } from '../../http/outbound.ts';
import {
  merchantById,
  merchantOfUser,
  newWebhookSecret,
  notificationPolicy,
  sealSecret,
  webhookSecretOf,
} from './profile.ts';

export const NOTIFY_QUEUE = 'merchant-notify';
export type MerchantEvent = 'payment.succeeded' | 'payment.canceled' | 'refund.succeeded';
/** A merchant's server has this long to answer. */
const TIMEOUT_MS = 5000;
/** Retries doubling from 45 s: the last about 25 hours after the first attempt. */
const RETRIES = 11;
const FIRST_RETRY_S = 45;
const LOG_SIZE = 50;

/** The signature header of a body sent at `t` (unix seconds). */
export function signatureOf(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Writes a notification in the caller's transaction, for a merchant with a notification URL; answers its
 * id, or null when the merchant has none.
 */
export async function recordNotification(
  q: Queryable,
  ctx: AppContext,
  merchantId: string,
  event: MerchantEvent,
  object: { id: string } & Record<string, unknown>,
): Promise<string | null> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO merchant_notifications (id, merchant_id, event, object, status, created_at)
     SELECT $1, m.id, $3, $4::jsonb, 'pending', $5 FROM merchants m WHERE m.id = $2 AND m.notification_url IS NOT NULL
     RETURNING id`,
    [randomUUID(), merchantId, event, JSON.stringify(object), ctx.clock.now()],
  );
  return rows[0]?.id ?? null;
}

/** After the commit: hands the notification to the queue, or (no job system here) delivers it once. */
export async function dispatchNotification(ctx: AppContext, id: string | null): Promise<void> {
  if (!id) return;
  if (ctx.jobs.running) await ctx.jobs.send(NOTIFY_QUEUE, { id });
  else await deliverNotification(ctx, id).catch(() => {});
}

interface NotificationRow {
  id: string;
  merchant_id: string;
  event: MerchantEvent;
  object: { id: string } & Record<string, unknown>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
}
const COLUMNS =
  'id, merchant_id, event, object, status, attempts, last_status, last_error, created_at, last_attempt_at';

/**
 * One attempt: a 2xx answer delivers it; any other answer or a network error is recorded and thrown, so
 * the job is retried; an address the outbound rules refuse is recorded as failed, never retried.
 */
export async function deliverNotification(ctx: AppContext, id: string): Promise<void> {
  const { rows } = await ctx.db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM merchant_notifications WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row || row.status === 'delivered') return;
  const merchant = await merchantById(ctx.db, row.merchant_id);
  if (!merchant?.notification_url) return;
  const body = JSON.stringify({ type: 'notification', event: row.event, object: row.object });
  const t = Math.floor(ctx.clock.now().getTime() / 1000);
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = await outboundRequest(
      merchant.notification_url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          signature: signatureOf(webhookSecretOf(ctx, merchant), t, body),
        },
        body: new TextEncoder().encode(body),
        timeoutMs: TIMEOUT_MS,
      },
      notificationPolicy(ctx),
    );
  } catch (failure) {
    error = failure instanceof OutboundRefused ? `refused: ${failure.message}` : 'no answer';
  }
  const delivered = status !== null && status >= 200 && status < 300;
  const refused = error?.startsWith('refused') ?? false;
  await ctx.db.query(
    `UPDATE merchant_notifications SET attempts = attempts + 1, last_status = $2, last_error = $3,
       last_attempt_at = $4, status = $5, delivered_at = $6 WHERE id = $1`,
    [
      id,
      status,
      error,
      ctx.clock.now(),
      delivered ? 'delivered' : refused ? 'failed' : 'pending',
      delivered ? ctx.clock.now() : null,
    ],
  );
  if (!delivered && !refused) throw new Error(`the merchant answered ${status ?? 'nothing'}`);
}

/** The notifications' queue, and a start-up catch-up of those a stopped instance had not handed on. */
export function defineNotifyJobs(ctx: AppContext): void {
  ctx.jobs.define<{ id: string }>({
    name: NOTIFY_QUEUE,
    run: ({ id }) => deliverNotification(ctx, id),
    retryLimit: RETRIES,
    retryDelaySeconds: FIRST_RETRY_S,
    onStart: async () => {
      const { rows } = await ctx.db.query<{ id: string }>(
        `SELECT id FROM merchant_notifications WHERE status = 'pending' AND attempts = 0
           AND created_at > $1 ORDER BY created_at LIMIT 1000`,
        [new Date(ctx.clock.now().getTime() - 86_400_000)],
      );
      for (const { id } of rows) await ctx.jobs.send(NOTIFY_QUEUE, { id });
    },
  });
}

async function ownMerchantId(ctx: AppContext, userId: string): Promise<string> {
  const merchant = await merchantOfUser(ctx.db, userId);
  if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
  return merchant.id;
}

export async function rotateSecret(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'merchantWebhookSecret'>> {
  const id = await ownMerchantId(ctx, userId);
  const secret = newWebhookSecret();
  await ctx.db.query('UPDATE merchants SET webhook_secret = $2, updated_at = $3 WHERE id = $1', [
    id,
    sealSecret(ctx, id, secret),
    ctx.clock.now(),
  ]);
  return { status: 'success', webhook_secret: secret };
}

function logView(row: NotificationRow): AnswerOf<'merchantNotificationResend'> {
  return {
    id: row.id,
    event: row.event,
    object_id: row.object.id,
    status: row.status,
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  };
}

export async function notificationLog(
  ctx: AppContext,
  userId: string,
): Promise<AnswerOf<'merchantNotifications'>> {
  const id = await ownMerchantId(ctx, userId);
  const { rows } = await ctx.db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM merchant_notifications WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [id, LOG_SIZE],
  );
  return { results: rows.map(logView) };
}

/** 'Send again': one more attempt now (a delivered one is sent again too), answered with its outcome. */
export async function resendNotification(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<AnswerOf<'merchantNotificationResend'>> {
  const merchant = await merchantOfUser(ctx.db, userId);
  if (!merchant) throw new AppError('MERCHANT_NOT_FOUND');
  const { rows } = await ctx.db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM merchant_notifications WHERE id = $1 AND merchant_id = $2`,
    [id, merchant.id],
  );
  if (!rows[0]) throw new AppError('MERCHANT_NOTIFICATION_NOT_FOUND');
  if (!merchant.notification_url) throw new AppError('MERCHANT_NO_NOTIFICATION_URL');
  await ctx.db.query(`UPDATE merchant_notifications SET status = 'pending' WHERE id = $1`, [id]);
  await deliverNotification(ctx, id).catch(() => {});
  const { rows: after } = await ctx.db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM merchant_notifications WHERE id = $1`,
    [id],
  );
  return logView(after[0]!);
}
