/**
 * Web Push (docs/decisions/live-wallet.md#the-live-wallet): a browser's subscription, the person's choice of
 * pushes, and the sender. Events that may be pushed (money in and out, a new sign-in, a PIN lock) become
 * `push_due` rows, written by the ledger's writer and the notifications' trigger when the person has a
 * subscription (db/functions/ledger.sql, wallet_events.sql);
 * every instance hears the notice and one claims each row (a DELETE that only one can win) and puts it
 * on the `push` queue of the job system (docs/decisions/jobs.md#one-job-system), whose job renders it in each
 * subscription's language and sends it through `web-push` (VAPID, aes128gcm); a push service's failure
 * fails the job, retried with backoff. A push service answering 404 or 410 means the subscription is
 * gone: it is forgotten. The `push-sweep` job (every minute) claims rows whose notice was lost.
 */
import { createECDH } from 'node:crypto';
import { type AnswerOf, type BodyOut, LANGUAGES, type Language } from '@e-wallet/contract';
import { aboutPath } from '@e-wallet/contract/routes';
import webpush from 'web-push';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { type OutboundPolicy, outboundProblem, outboundRequest } from '../../http/outbound.ts';
import { proveOwner, securityChanged } from '../auth/index.ts';
import { notificationOf } from '../notifications/index.ts';

const PUSH_TIMEOUT_MS = 10_000;
/** A due push nobody claimed this long (its notice was lost) is claimed by the sweep. */
const SWEEP_AFTER_MS = 15_000;
const PUSH_QUEUE = 'push';

// ---------- subscriptions ----------

/** Where pushes may go: the known push services, or (tests only) a local one over plain http. */
function pushPolicy(ctx: AppContext): OutboundPolicy {
  return { hosts: ctx.config.PUSH_SERVICE_HOSTS, localTestService: ctx.config.PUSH_TEST_SERVICE };
}

/**
 * A subscription a push service could have made: an https endpoint of a known push service at a
 * public address (http/outbound.ts; checked again when sending), a P-256 point and a 16-byte secret.
 */
function validSubscription(ctx: AppContext, body: BodyOut<'pushSubscribe'>): boolean {
  if (outboundProblem(body.endpoint, pushPolicy(ctx))) return false;
  const auth = Buffer.from(body.keys.auth, 'base64url');
  const point = Buffer.from(body.keys.p256dh, 'base64url');
  if (auth.length !== 16 || point.length !== 65 || point[0] !== 4) return false;
  try {
    // A point off the curve cannot be encrypted to.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps a browser's subscription after the PIN or a fresh SMS code (a new device for alerts is a
 * security change, told at once). An endpoint belongs to one person: another person's is refused as
 * invalid and stays theirs (its owner unsubscribes it, or it is forgotten when the service drops it).
 */
export async function subscribe(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'pushSubscribe'>,
  language: Language,
): Promise<void> {
  if (!validSubscription(ctx, body)) throw new AppError('PUSH_SUBSCRIPTION_INVALID');
  const proof = await proveOwner(ctx, userId, body, language);
  const { rows } = await ctx.db.query<{ added: boolean }>(
    `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, language, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
       language = EXCLUDED.language, suspended_at = NULL
       WHERE push_subscriptions.user_id = EXCLUDED.user_id
     RETURNING (xmax = 0) AS added`,
    [body.endpoint, userId, body.keys.p256dh, body.keys.auth, language, ctx.clock.now()],
  );
  if (!rows[0]) throw new AppError('PUSH_SUBSCRIPTION_INVALID');
  if (rows[0].added) await securityChanged(ctx, userId, 'push_added', proof, language);
}

export async function unsubscribe(ctx: AppContext, userId: string, endpoint: string): Promise<void> {
  await ctx.db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2', [
    endpoint,
    userId,
  ]);
}

/**
 * A freeze suspends every push subscription (modules/freeze): a thief's browser hears nothing more of
 * the wallet; the owner's own comes back when they switch pushes on again (with the PIN or a code).
 */
export async function suspendSubscriptions(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query(
    'UPDATE push_subscriptions SET suspended_at = $2 WHERE user_id = $1 AND suspended_at IS NULL',
    [userId, at],
  );
}

// ---------- settings ----------

interface SettingsRow {
  push_money_in: boolean;
  push_security: boolean;
}

async function settingsRow(q: Queryable, userId: string): Promise<SettingsRow> {
  const { rows } = await q.query<SettingsRow>(
    'SELECT push_money_in, push_security FROM notification_settings WHERE user_id = $1',
    [userId],
  );
  return rows[0] ?? { push_money_in: true, push_security: true };
}

export async function settingsOf(ctx: AppContext, userId: string): Promise<AnswerOf<'notificationSettings'>> {
  const row = await settingsRow(ctx.db, userId);
  const { rows } = await ctx.db.query(
    'SELECT 1 FROM push_subscriptions WHERE user_id = $1 AND suspended_at IS NULL LIMIT 1',
    [userId],
  );
  return { ...row, push_money_out: true, push_subscribed: rows.length > 0 };
}

/** Changes which pushes come; switching security alerts off needs the PIN or a fresh SMS code. */
export async function updateSettings(
  ctx: AppContext,
  userId: string,
  body: BodyOut<'updateNotificationSettings'>,
  language: Language,
): Promise<AnswerOf<'notificationSettings'>> {
  const now = await settingsRow(ctx.db, userId);
  const reducing = body.push_security === false && now.push_security;
  const proof = reducing ? await proveOwner(ctx, userId, body, language) : null;
  await ctx.db.query(
    `INSERT INTO notification_settings (user_id, push_money_in, push_security, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET push_money_in = EXCLUDED.push_money_in,
       push_security = EXCLUDED.push_security, updated_at = EXCLUDED.updated_at`,
    [
      userId,
      body.push_money_in ?? now.push_money_in,
      body.push_security ?? now.push_security,
      ctx.clock.now(),
    ],
  );
  if (proof) await securityChanged(ctx, userId, 'alerts_reduced', proof, language);
  return settingsOf(ctx, userId);
}

// ---------- sending ----------

/** A due push as its job carries it. */
interface DueEvent {
  user_id: string;
  kind: 'entry' | 'notification';
  ref: string;
}

interface Subscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  language: Language;
}

/** What a push says and which screen its click opens. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

type PushGroup = 'money_in' | 'money_out' | 'security' | 'budget' | 'support';

const TITLES: Record<PushGroup, Record<Language, string>> = {
  budget: { ru: 'Бюджет', en: 'Budget' },
  money_in: { ru: 'Поступление', en: 'Money in' },
  money_out: { ru: 'Списание', en: 'Money out' },
  security: { ru: 'Безопасность', en: 'Security' },
  support: { ru: 'Поддержка', en: 'Support' },
};

/** Claims due pushes (one person's on a notice, or the overdue ones of anyone) with a DELETE only one instance wins. */
async function claimDue(ctx: AppContext, userId: string | null): Promise<DueEvent[]> {
  const { rows } = await ctx.db.query<DueEvent & { id: bigint }>(
    userId
      ? 'DELETE FROM push_due WHERE user_id = $1 RETURNING id, user_id, kind, ref'
      : `DELETE FROM push_due WHERE id IN (SELECT id FROM push_due WHERE created_at < $1 ORDER BY id LIMIT 100)
         RETURNING id, user_id, kind, ref`,
    [userId ?? new Date(Date.now() - SWEEP_AFTER_MS)],
  );
  rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  return rows.map(({ user_id, kind, ref }) => ({ user_id, kind, ref }));
}

/** Hands claimed pushes to the queue, or (no job system here: tests) sends them at once. */
async function dispatch(ctx: AppContext, events: DueEvent[]): Promise<void> {
  for (const event of events) {
    if (ctx.jobs.running) await ctx.jobs.send(PUSH_QUEUE, event);
    else await sendPush(ctx, event).catch(() => {});
  }
}

/** The push queues: one job per due push, and the sweep of pushes whose notice was lost. */
export function definePushJobs(ctx: AppContext): void {
  ctx.jobs.define<DueEvent>({ name: PUSH_QUEUE, run: (event) => sendPush(ctx, event) });
  ctx.jobs.define({
    name: 'push-sweep',
    cron: '* * * * *',
    run: async () => dispatch(ctx, await claimDue(ctx, null)),
  });
}

/** Sends one due push to each of the person's subscriptions; throws when a push service failed (retried). */
async function sendPush(ctx: AppContext, event: DueEvent): Promise<void> {
  const db = ctx.db;
  const { rows: subscriptions } = await db.query<Subscription>(
    'SELECT endpoint, p256dh, auth, language FROM push_subscriptions WHERE user_id = $1 AND suspended_at IS NULL',
    [event.user_id],
  );
  if (subscriptions.length === 0) return;
  const settings = await settingsRow(db, event.user_id);
  const messages = new Map<Language, PushMessage | null>();
  for (const language of LANGUAGES) {
    if (!subscriptions.some((s) => s.language === language)) continue;
    messages.set(language, await pushMessage(ctx, event, language, settings));
  }
  const failures = await Promise.all(
    subscriptions.map(async (subscription) => {
      const message = messages.get(subscription.language) ?? messages.get('ru');
      return message ? deliver(ctx, subscription, message) : true;
    }),
  );
  if (failures.includes(false)) throw new Error('a push service did not take the push');
}

async function pushMessage(
  ctx: AppContext,
  event: DueEvent,
  language: Language,
  settings: SettingsRow,
): Promise<PushMessage | null> {
  const source = event.kind === 'entry' ? { entryId: event.ref } : { notificationId: event.ref };
  const found = await notificationOf(ctx.db, event.user_id, source, language, opaqueIds(ctx.config));
  if (!found) return null;
  const { kind, message, id, about } = found.notification;
  const group: PushGroup =
    kind === 'money_in' || kind === 'money_out' || kind === 'budget' || kind === 'support'
      ? kind
      : 'security';
  // Money out is always told; the rest as the person chose in Settings.
  if (group === 'money_in' && !settings.push_money_in) return null;
  if (group === 'security' && !settings.push_security) return null;
  // A click opens what the notice is about, as a tap on it in the app does.
  return { title: TITLES[group][language], body: message, url: aboutPath(about), tag: id };
}

/** Sends one push; answers false when the push service failed (worth a retry). */
async function deliver(ctx: AppContext, subscription: Subscription, message: PushMessage): Promise<boolean> {
  const { config } = ctx;
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    {
      vapidDetails: {
        subject: config.VAPID_SUBJECT,
        publicKey: config.VAPID_PUBLIC_KEY,
        privateKey: config.VAPID_PRIVATE_KEY,
      },
      TTL: 24 * 3600,
      urgency: 'high',
    },
  );
  // web-push makes the request (VAPID, encryption); http/outbound.ts sends it: https to a known push
  // service at a public address, no redirects. A refused address is not retried.
  const status = await outboundRequest(
    request.endpoint,
    {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : undefined,
      timeoutMs: PUSH_TIMEOUT_MS,
    },
    pushPolicy(ctx),
  ).catch(() => null);
  // Gone at the push service: forgotten. Only a known service's answer counts (the policy above).
  if (status === 404 || status === 410) {
    await ctx.db.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [subscription.endpoint]);
    return true;
  }
  return status !== null && status < 500 && status !== 429;
}

/** This instance's ear for due pushes: a notice claims the person's and hands them on. */
export class PushSender {
  /** Claims in flight, so that closing waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(ctx: AppContext) {
    ctx.db
      .listen('wallet_events', {
        notice: (payload) => {
          const [userId, push] = payload.split(':');
          if (push === 'push' && userId && !this.closed)
            this.track(claimDue(ctx, userId).then((events) => dispatch(ctx, events)));
        },
        ready: () => {},
        lost: () => {},
      })
      .catch(() => {});
  }

  private track(work: Promise<void>): void {
    const running = work.catch(() => {}).finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.inFlight]);
  }
}
