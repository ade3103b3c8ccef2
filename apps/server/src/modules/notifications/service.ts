/**
 * Notifications of a user, read in cursor pages newest first from two sources: the rows the server
 * stores on events (registration, a new device), inside the event's transaction, and the ledger's
 * entries for money in and out, which the ledger writes anyway: a rolled-back
 * transfer leaves neither. A money notification's read mark is a row of notification_reads.
 *
 *   notify(q, userId, kind, messageKey, params, at)
 *   notifyRegistration(q, userId, firstName, at)
 *   notifyNewDevice(q, userId, {userAgent, at}): call it BEFORE the new session is created
 *   money in and out: read from the ledger's entries (noticeEntrySql, moneyNotice), not stored
 */
import {
  type CurrencyCode,
  formatAmount,
  formatMoney,
  type Language,
  type NotificationAbout,
} from '@e-wallet/contract';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { type OpaqueIds, processIds } from '../../http/opaque-id.ts';
import type { EntryPhase, Transfer } from '../../ledger/index.ts';
import { maskedName } from '../../policy/names.ts';
import { aboutOf, type NotificationMessageKey, renderMessage } from './messages.ts';

export type NotificationKind = StoredNotificationKind | 'money_in' | 'money_out';
/** The kinds stored as rows: money in and out are the ledger's entries, never stored twice. */
export type StoredNotificationKind =
  | 'registration'
  | 'new_device'
  | 'security'
  | 'request'
  | 'schedule'
  | 'identification'
  | 'budget'
  | 'support';

export async function notify(
  q: Queryable,
  userId: string,
  kind: StoredNotificationKind,
  messageKey: NotificationMessageKey,
  params: Record<string, string>,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO notifications (user_id, kind, message_key, params, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [userId, kind, messageKey, params, at],
  );
}

export function notifyRegistration(q: Queryable, userId: string, firstName: string, at: Date): Promise<void> {
  return notify(q, userId, 'registration', 'registration', { first_name: firstName }, at);
}

/** A short device name from a User-Agent: the browser and the system, never the whole header. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  const name = [browser, system].filter(Boolean).join(', ');
  return name || userAgent.slice(0, 60) || '—';
}

/**
 * Notifies a sign-in from a device (User-Agent) the user has never signed in from. Call it before
 * the new session is created: it looks for an earlier session with the same User-Agent.
 */
export async function notifyNewDevice(
  q: Queryable,
  userId: string,
  device: { userAgent: string; at: Date },
): Promise<boolean> {
  const userAgent = device.userAgent.slice(0, 300);
  const { rows } = await q.query('SELECT 1 FROM sessions WHERE user_id = $1 AND user_agent = $2 LIMIT 1', [
    userId,
    userAgent,
  ]);
  if (rows.length > 0) return false;
  await notify(q, userId, 'new_device', 'new_device', { device: deviceName(userAgent) }, device.at);
  return true;
}

const OUT_KEYS: Partial<Record<Transfer['kind'], NotificationMessageKey>> = {
  withdrawal: 'money_out_withdrawal',
  transfer: 'money_out_transfer',
  payment: 'money_out_payment',
  fee: 'money_out_fee',
  exchange: 'money_out_exchange',
};
const IN_KEYS: Partial<Record<Transfer['kind'], NotificationMessageKey>> = {
  topup: 'money_in_topup',
  transfer: 'money_in_transfer',
  refund: 'money_in_refund',
  exchange: 'money_in_exchange',
};

/**
 * The ledger entries that are notifications, as `ledger_entry_notifies` (db/functions/wallet_events.sql)
 * decides, read from the person's index of entries (`ledger_entries_person`, migration 0470), which
 * includes the phase and the amount it reads. System accounts hear nothing.
 */
export function noticeEntrySql(e: string): string {
  return `${e}.user_id IS NOT NULL AND ledger_entry_notifies(${e}.phase, ${e}.amount)`;
}

/**
 * A held operation's money tells nothing itself: its hold's notices say each change once
 * (docs/decisions/history-and-trust.md). The held money's entries, and the opening entry of the money
 * that left at release; a released payout that fails later is still told as money returned.
 */
function heldMoneySql(e: string): string {
  return `(EXISTS (SELECT 1 FROM money_holds h WHERE h.hold_transfer_id = ${e}.transfer_id)
    OR (${e}.phase IN ('single', 'hold') AND EXISTS (SELECT 1 FROM money_holds h
      WHERE h.movement_id = ${e}.transfer_id AND h.user_id = ${e}.user_id)))`;
}

/** A withdrawal's payout: its way and its fee, for the page's notices of money out (render). */
const PAYOUT_SQL = (transfer: string) => `LEFT JOIN LATERAL (
  SELECT t.description ->> 'way' AS way, p.fee::text AS fee FROM ledger_transfers t
  LEFT JOIN payouts p ON p.hold_transfer_id = t.id AND p.fee > 0
  WHERE t.id = ${transfer}
) payout ON true`;

/**
 * A payout's fee tells nothing itself: its payout's notice is the operation's (docs/decisions/sbp.md#fees).
 * Apart from noticeEntrySql, so the unread count's read of the user's entries stays index-only.
 */
const NOT_FEE_SQL = (e: string) => `${e}.kind <> 'fee'`;

/** What a notifying entry says: its kind and message, by the movement's kind, phase and side. */
export function moneyNotice(
  kind: Transfer['kind'],
  phase: EntryPhase,
  amount: bigint,
): { kind: NotificationKind; messageKey: NotificationMessageKey } {
  if (phase === 'void') return { kind: 'money_in', messageKey: 'money_returned' };
  return amount < 0n
    ? { kind: 'money_out', messageKey: OUT_KEYS[kind] ?? 'money_out' }
    : { kind: 'money_in', messageKey: IN_KEYS[kind] ?? 'money_in' };
}

// ---------- reading ----------

export interface NotificationView {
  id: string;
  created_at: string;
  message: string;
  kind: string;
  is_read: boolean;
  about: NotificationAbout;
}

interface NotificationRow {
  /** A stored notification's id (null for a money notification, which has entry_id). */
  id: string | null;
  entry_id: string | null;
  source: number;
  /** A stored notification's kind, key and parameters (null for a money notification). */
  kind: string | null;
  message_key: string | null;
  params: Record<string, string> | null;
  created_at: Date;
  is_read: boolean;
  /** A money notification's entry: the movement's kind, the phase, the signed amount, the currency. */
  entry_kind: Transfer['kind'] | null;
  phase: EntryPhase | null;
  amount: string | null;
  currency: string | null;
  /** A money notification's operation. */
  transfer_id: string | null;
  /** An incoming transfer's sender (the debited account's owner). */
  sender_first_name: string | null;
  sender_last_name: string | null;
  /** A payout's way ('sbp') and fee (PAYOUT_SQL), for an outgoing withdrawal's notice. */
  way?: string | null;
  fee?: string | null;
}

function render(row: NotificationRow, language: Language, ids: OpaqueIds): NotificationView {
  let kind = row.kind ?? '';
  let messageKey = row.message_key ?? '';
  const params = { ...row.params };
  if (row.entry_kind && row.phase && row.amount !== null && row.currency) {
    const amount = BigInt(row.amount);
    ({ kind, messageKey } = moneyNotice(row.entry_kind, row.phase, amount));
    params.amount_minor = (amount < 0n ? -amount : amount).toString();
    params.currency = row.currency;
    // An СБП transfer says so, and its fee is told with it (NOT_FEE_SQL): left, or back with the amount.
    if (row.way === 'sbp' && messageKey === 'money_out_withdrawal') messageKey = 'money_out_sbp';
    if (row.fee) {
      if (messageKey === 'money_returned')
        params.amount_minor = String(BigInt(params.amount_minor) + BigInt(row.fee));
      else
        params.fee = formatMoney(
          formatAmount(BigInt(row.fee), row.currency as CurrencyCode),
          row.currency as CurrencyCode,
          language,
        );
      if (messageKey === 'money_out_sbp') messageKey = 'money_out_sbp_fee';
    }
    if (messageKey === 'money_in_transfer' && row.sender_first_name !== null) {
      messageKey = 'money_in_transfer_from';
      params.sender = maskedName(row.sender_first_name, row.sender_last_name ?? '');
    }
  }
  if (params.amount_minor && params.currency) {
    const currency = params.currency as CurrencyCode;
    // As the app shows money everywhere else: '2 750,40 ₽' in Russian, '₽2,750.40' in English.
    params.amount = formatMoney(formatAmount(BigInt(params.amount_minor), currency), currency, language);
  }
  return {
    id: row.id ?? ids.entryUuid(row.entry_id!),
    created_at: row.created_at.toISOString(),
    message: renderMessage(messageKey, params, language),
    kind,
    is_read: row.is_read,
    about: row.transfer_id ? { type: 'operation', id: row.transfer_id } : aboutOf(messageKey, params),
  };
}

/**
 * One page of both sources, newest first by (created_at, source, id): stored notifications (source
 * 1, by their random UUID) before money ones (source 0, by the entry's id) at one instant. Each
 * source gives at most a page from its own index range below the cursor, and the merge keeps the
 * newest. A money notification's id is the entry's opaque id (http/opaque-id.ts), made in
 * render: the entry's own id never leaves the server. $5 is the cursor's source, $3 its stored
 * notification's id, $6 its entry id.
 */
const PAGE_SQL = `SELECT page.*, sender.first_name AS sender_first_name, sender.last_name AS sender_last_name,
  payout.way, payout.fee
FROM (SELECT * FROM (
  (SELECT n.id, NULL::bigint AS entry_id, n.kind, n.message_key, n.params, n.created_at,
     n.read_at IS NOT NULL AS is_read,
     NULL::text AS entry_kind, NULL::text AS phase, NULL::bigint AS amount, NULL::text AS currency, 1 AS source,
     NULL::uuid AS transfer_id
   FROM notifications n
   WHERE n.user_id = $1 AND n.created_at <= coalesce($2::timestamptz, 'infinity')
     AND ($2::timestamptz IS NULL OR n.created_at < $2::timestamptz
          OR ($5::integer = 1 AND n.id < $3::uuid))
   ORDER BY n.created_at DESC, n.id DESC LIMIT $4)
  UNION ALL
  (SELECT NULL::uuid, e.id, NULL, NULL, NULL, e.created_at,
     EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.entry_id = e.id),
     e.kind, e.phase, e.amount, e.currency, 0, e.transfer_id
   FROM ledger_entries e
   WHERE e.user_id = $1 AND ${noticeEntrySql('e')} AND NOT ${heldMoneySql('e')} AND ${NOT_FEE_SQL('e')}
     AND e.created_at <= coalesce($2::timestamptz, 'infinity')
     AND ($2::timestamptz IS NULL OR e.created_at < $2::timestamptz
          OR $5::integer = 1 OR e.id < $6::bigint)
   ORDER BY e.created_at DESC, e.id DESC LIMIT $4)
) page ORDER BY created_at DESC, source DESC, id DESC NULLS LAST, entry_id DESC NULLS LAST LIMIT $4) page
-- Only the page's incoming transfers look up their sender, one transfer each.
LEFT JOIN LATERAL (
  SELECT u.first_name, u.last_name
  FROM ledger_transfers t
  JOIN ledger_accounts a ON a.id = t.debit_account_id
  JOIN users u ON u.id = a.user_id
  WHERE t.id = page.transfer_id
) sender ON page.entry_kind = 'transfer' AND page.amount > 0
${PAYOUT_SQL("CASE WHEN page.entry_kind = 'withdrawal' THEN page.transfer_id END")}
ORDER BY page.created_at DESC, page.source DESC, page.id DESC NULLS LAST, page.entry_id DESC NULLS LAST`;

/**
 * Unread: stored ones without a read mark, and money ones less their read marks (a mark is only
 * ever written for one of the user's notifying entries, so the difference is exact). Two counts of
 * one index range each: no join whose plan could go wrong while notification_reads is still small.
 */
const UNREAD_SQL = `SELECT (SELECT count(*) FROM notifications WHERE user_id = $1 AND read_at IS NULL)
  + (SELECT count(*) FROM ledger_entries e WHERE e.user_id = $1 AND ${noticeEntrySql('e')})
  - (SELECT count(*) FROM notification_reads WHERE user_id = $1)
  - (SELECT count(*) FROM ledger_entries e WHERE EXISTS (SELECT 1 FROM money_holds WHERE user_id = $1)
      AND e.user_id = $1 AND ${noticeEntrySql('e')} AND ${heldMoneySql('e')}
      AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.entry_id = e.id))
  - (SELECT count(*) FROM ledger_entries e WHERE EXISTS (SELECT 1 FROM payouts WHERE user_id = $1 AND fee > 0)
      AND e.user_id = $1 AND ${noticeEntrySql('e')} AND NOT ${NOT_FEE_SQL('e')} AND NOT ${heldMoneySql('e')}
      AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.entry_id = e.id)) AS unread`;

export async function listNotifications(
  q: Queryable,
  userId: string,
  options: { cursor?: string; limit: number; language: Language; ids?: OpaqueIds },
): Promise<{ results: NotificationView[]; next: string | null; unread: number }> {
  const ids = options.ids ?? processIds;
  const after = options.cursor ? decodeCursor(options.cursor, ids) : null;
  let afterEntry: string | null = null;
  if (after && after.source !== '1') {
    afterEntry = ids.entryIdOf(after.id);
    if (after.source !== '0' || afterEntry === null) throw new AppError('FIELD_INVALID', { field: 'cursor' });
  }
  const { rows } = await q.query<NotificationRow>(PAGE_SQL, [
    userId,
    after?.createdAt ?? null,
    after?.source === '1' ? after.id : null,
    options.limit + 1,
    after ? Number(after.source) : null,
    afterEntry,
  ]);
  const page = rows.slice(0, options.limit);
  const views = page.map((row) => render(row, options.language, ids));
  const last = page[page.length - 1];
  const lastView = views[views.length - 1];
  const next =
    rows.length > options.limit && last && lastView
      ? encodeCursor({ createdAt: last.created_at, id: lastView.id, source: String(last.source) }, ids)
      : null;
  const { rows: counts } = await q.query<{ unread: string }>(UNREAD_SQL, [userId]);
  return { results: views, next, unread: Number(counts[0]?.unread ?? 0) };
}

/** Marks the given notifications (or all) read; another user's id is NOTIFICATION_NOT_FOUND. */
export async function markRead(
  q: Queryable,
  userId: string,
  ids: string[] | undefined,
  at: Date,
  opaque: OpaqueIds = processIds,
): Promise<void> {
  if (ids === undefined) {
    await q.query('UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [
      userId,
      at,
    ]);
    await q.query(
      `INSERT INTO notification_reads (user_id, entry_id, read_at)
       SELECT $1, e.id, $2 FROM ledger_entries e WHERE e.user_id = $1 AND ${noticeEntrySql('e')}
       ON CONFLICT DO NOTHING`,
      [userId, at],
    );
    return;
  }
  const entryIds: string[] = [];
  const stored: string[] = [];
  for (const id of new Set(ids.map((id) => id.toLowerCase()))) {
    // A money notification's id is its entry's opaque id, never a stored notification's.
    const entryId = opaque.entryIdOf(id);
    if (entryId === null) stored.push(id);
    else entryIds.push(entryId);
  }
  if (stored.length > 0) {
    const { rows } = await q.query<{ id: string }>(
      'SELECT id FROM notifications WHERE user_id = $1 AND id = ANY($2::uuid[])',
      [userId, stored],
    );
    if (rows.length !== stored.length) throw new AppError('NOTIFICATION_NOT_FOUND');
  }
  if (entryIds.length > 0) {
    const { rows } = await q.query<{ id: string }>(
      `SELECT e.id FROM ledger_entries e WHERE e.user_id = $1 AND e.id = ANY($2::bigint[]) AND ${noticeEntrySql('e')}`,
      [userId, entryIds],
    );
    if (rows.length !== entryIds.length) throw new AppError('NOTIFICATION_NOT_FOUND');
    await q.query(
      `INSERT INTO notification_reads (user_id, entry_id, read_at)
       SELECT $1, unnest($2::bigint[]), $3 ON CONFLICT DO NOTHING`,
      [userId, entryIds, at],
    );
  }
  if (stored.length > 0)
    await q.query(
      'UPDATE notifications SET read_at = $3 WHERE user_id = $1 AND id = ANY($2::uuid[]) AND read_at IS NULL',
      [userId, stored, at],
    );
}

/**
 * One notification of the user as the list shows it, by its source: a stored notification's id, or a
 * money entry's id (null when the entry tells nothing), with the unread count now. For the live
 * wallet's stream (modules/events).
 */
export async function notificationOf(
  q: Queryable,
  userId: string,
  source: { notificationId: string } | { entryId: string },
  language: Language,
  ids: OpaqueIds = processIds,
): Promise<{ notification: NotificationView; unread: number } | null> {
  const { rows } = await q.query<NotificationRow>(
    'notificationId' in source
      ? `SELECT n.id, NULL::bigint AS entry_id, n.kind, n.message_key, n.params, n.created_at,
           n.read_at IS NOT NULL AS is_read, NULL AS entry_kind, NULL AS phase, NULL AS amount, NULL AS currency,
           1 AS source, NULL AS transfer_id, NULL AS sender_first_name, NULL AS sender_last_name
         FROM notifications n WHERE n.id = $2::uuid AND n.user_id = $1`
      : `SELECT NULL::uuid AS id, e.id AS entry_id, NULL AS kind, NULL AS message_key, NULL AS params, e.created_at,
           EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.entry_id = e.id) AS is_read,
           e.kind AS entry_kind, e.phase, e.amount, e.currency, 0 AS source, e.transfer_id,
           sender.first_name AS sender_first_name, sender.last_name AS sender_last_name, payout.way, payout.fee
         FROM ledger_entries e
         LEFT JOIN LATERAL (
           SELECT u.first_name, u.last_name FROM ledger_transfers t
           JOIN ledger_accounts a ON a.id = t.debit_account_id JOIN users u ON u.id = a.user_id
           WHERE t.id = e.transfer_id
         ) sender ON e.kind = 'transfer' AND e.amount > 0
         ${PAYOUT_SQL("CASE WHEN e.kind = 'withdrawal' THEN e.transfer_id END")}
         WHERE e.id = $2::bigint AND e.user_id = $1 AND ${noticeEntrySql('e')} AND NOT ${heldMoneySql('e')}
           AND ${NOT_FEE_SQL('e')}`,
    [userId, 'notificationId' in source ? source.notificationId : source.entryId],
  );
  const row = rows[0];
  if (!row) return null;
  const { rows: counts } = await q.query<{ unread: string }>(UNREAD_SQL, [userId]);
  return { notification: render(row, language, ids), unread: Number(counts[0]?.unread ?? 0) };
}
