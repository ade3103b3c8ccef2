/**
 * One's own data (docs/decisions/account.md#a-persons-account): everything the wallet keeps about a person,
 * read through the same readers the app's screens use, as JSON or as a PDF. Secrets and what a person
 * could be harmed by leaking stay out: no PIN hash or salt, no token or its hash, no passkey public
 * key, no push endpoint or keys, no document number (not even masked) and no document images.
 */
import type { Language } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { trustedPersonOf } from '../antifraud/index.ts';
import { budgetsOf } from '../budgets/index.ts';
import { goalsOf } from '../goals/index.ts';
import { addressKey, hit } from '../limits/index.ts';
import { listNotifications } from '../notifications/index.ts';
import { listPasskeys } from '../passkeys/index.ts';
import { listRequests } from '../requests/index.ts';
import { listSchedules } from '../schedules/index.ts';
import { supportMessages } from '../support/index.ts';
import { listTemplates } from '../templates/index.ts';
import { transactionsOf, walletOf } from '../wallet/index.ts';

/** Exports a person may ask for in an hour: each reads every operation they ever made. */
export const EXPORTS_PER_HOUR = 5;
/** Pages of 100 read at most per list: far above what one person makes, a bound on one request's work. */
const MAX_PAGES = 200;

async function everyPage<T>(read: (cursor?: string) => Promise<{ results: T[]; next: string | null }>) {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { results, next } = await read(cursor);
    all.push(...results);
    if (!next) break;
    cursor = next;
  }
  return all;
}

/** RATE_LIMITED after EXPORTS_PER_HOUR exports of this person (and of this address) in an hour. */
export async function countExport(ctx: AppContext, userId: string, ip: string): Promise<void> {
  const now = ctx.clock.now();
  const byUser = await hit(ctx.db, `export:user:${userId}`, 3600, EXPORTS_PER_HOUR, now);
  if (!byUser.allowed) throw new AppError('RATE_LIMITED');
  const byAddress = await hit(ctx.db, `export:address:${addressKey(ip)}`, 3600, EXPORTS_PER_HOUR * 4, now);
  if (!byAddress.allowed) throw new AppError('RATE_LIMITED');
}

export type PersonalData = Awaited<ReturnType<typeof personalData>>;

export async function personalData(ctx: AppContext, userId: string, language: Language) {
  const q = ctx.db;
  const { rows: people } = await q.query<{
    first_name: string;
    last_name: string;
    phone: string;
    email: string;
    created_at: Date;
    identification_level: string;
    frozen_at: Date | null;
    frozen_by: string | null;
  }>(
    `SELECT first_name, last_name, phone, email, created_at, identification_level, frozen_at, frozen_by
     FROM users WHERE id = $1`,
    [userId],
  );
  const person = people[0];
  if (!person) throw new AppError('INVALID_TOKEN');
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const [consents, sessions, passkeys, pushSubscriptions, alerts, verifications, applications, reports] =
    await Promise.all([
      q.query<{ version: string; accepted_at: Date }>(
        'SELECT version, accepted_at FROM terms_acceptances WHERE user_id = $1 ORDER BY accepted_at',
        [userId],
      ),
      q.query<{
        created_at: Date;
        last_used_at: Date;
        expires_at: Date;
        revoked_at: Date | null;
        user_agent: string;
        ip: string;
      }>(
        `SELECT created_at, last_used_at, expires_at, revoked_at, user_agent, ip FROM sessions
         WHERE user_id = $1 ORDER BY created_at DESC`,
        [userId],
      ),
      listPasskeys(ctx, userId, language),
      q.query<{ language: string; created_at: Date }>(
        'SELECT language, created_at FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at',
        [userId],
      ),
      q.query<{ push_money_in: boolean; push_security: boolean }>(
        'SELECT push_money_in, push_security FROM notification_settings WHERE user_id = $1',
        [userId],
      ),
      q.query<{
        target_level: string;
        provider: string;
        status: string;
        reason: string | null;
        created_at: Date;
        finished_at: Date | null;
      }>(
        `SELECT target_level, provider, status, reason, created_at, finished_at FROM verifications
         WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      ),
      q.query<{
        target_level: string;
        status: string;
        document_type: string | null;
        submitted_at: Date | null;
        decided_at: Date | null;
      }>(
        `SELECT target_level, status, document_type, submitted_at, decided_at FROM manual_kyc_applications
         WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      ),
      q.query<{ reason: string; status: string; created_at: Date }>(
        `SELECT reason, status, created_at FROM operation_reports
         WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      ),
    ]);
  const limit = '100';
  // The same ids as the history and the bell answer.
  const ids = opaqueIds(ctx.config);
  const [goals, budgets, trusted] = await Promise.all([
    goalsOf(ctx, userId),
    budgetsOf(ctx, userId, language),
    trustedPersonOf(ctx, userId),
  ]);
  // The chat as the person reads it, oldest first; images are counted, not copied (they are megabytes).
  const chat = await everyPage((cursor) =>
    supportMessages(ctx, userId, { limit, ...(cursor ? { cursor } : {}) }, language),
  );
  return {
    generated_at: ctx.clock.now().toISOString(),
    profile: {
      first_name: person.first_name,
      last_name: person.last_name,
      phone: person.phone,
      email: person.email,
      registered_at: person.created_at.toISOString(),
      frozen_at: iso(person.frozen_at),
      frozen_by: person.frozen_by,
    },
    consents: consents.rows.map((row) => ({ terms_version: row.version, accepted_at: iso(row.accepted_at) })),
    sessions: sessions.rows.map((row) => ({
      created_at: iso(row.created_at),
      last_used_at: iso(row.last_used_at),
      ended_at: iso(row.revoked_at),
      expires_at: iso(row.expires_at),
      user_agent: row.user_agent,
      ip: row.ip,
    })),
    passkeys: passkeys.results.map(({ name, created_at, last_used_at }) => ({
      name,
      created_at,
      last_used_at,
    })),
    push_subscriptions: pushSubscriptions.rows.map((row) => ({
      language: row.language,
      created_at: iso(row.created_at),
    })),
    notification_settings: alerts.rows[0] ?? { push_money_in: true, push_security: true },
    identification: {
      level: person.identification_level,
      verifications: verifications.rows.map((row) => ({
        target_level: row.target_level,
        provider: row.provider,
        status: row.status,
        reason: row.reason,
        created_at: iso(row.created_at),
        finished_at: iso(row.finished_at),
      })),
      applications: applications.rows.map((row) => ({
        target_level: row.target_level,
        status: row.status,
        document_type: row.document_type,
        submitted_at: iso(row.submitted_at),
        decided_at: iso(row.decided_at),
      })),
    },
    accounts: (await walletOf(q, userId)).results[0]?.accounts ?? [],
    operations: await everyPage((cursor) =>
      transactionsOf(q, userId, { limit, ...(cursor ? { cursor } : {}) }, language, ids),
    ),
    notifications: await everyPage((cursor) =>
      listNotifications(q, userId, { limit: 100, language, ids, ...(cursor ? { cursor } : {}) }),
    ),
    requests: {
      incoming: await everyPage((cursor) =>
        listRequests(ctx, userId, { direction: 'incoming', limit, ...(cursor ? { cursor } : {}) }),
      ),
      outgoing: await everyPage((cursor) =>
        listRequests(ctx, userId, { direction: 'outgoing', limit, ...(cursor ? { cursor } : {}) }),
      ),
    },
    templates: (await listTemplates(ctx, userId)).results,
    schedules: (await listSchedules(ctx, userId)).results,
    operation_reports: reports.rows.map((row) => ({
      reason: row.reason,
      status: row.status,
      created_at: iso(row.created_at),
    })),
    goals: goals.results,
    budgets: budgets.results,
    trusted_person: {
      trusted_person: trusted.trusted_person,
      trusting: trusted.trusting.map(({ name, phone, status }) => ({ name, phone, status })),
    },
    support_messages: chat.reverse().map(({ author, text, images, operation, created_at, read }) => ({
      author,
      text,
      images: images.length,
      operation: operation
        ? {
            description: operation.description,
            amount: operation.amount,
            currency_code: operation.currency_code,
            created_at: operation.created_at,
          }
        : null,
      created_at,
      read,
    })),
  };
}
