/**
 * Notifications of a user: created by the server on events, inside the transaction of the event
 * (so a rolled-back transfer leaves no notification), read in cursor pages newest first.
 *
 *   notify(q, userId, kind, messageKey, params, at)
 *   notifyRegistration(q, userId, firstName, at)
 *   notifyNewDevice(q, userId, {userAgent, at}): call it BEFORE the new session is created
 *   moneyMovementNotes(kind, phase): who the ledger notifies of a movement of money
 */
import { type CurrencyCode, currencySymbol, formatAmount, type Language } from '@e-wallet/contract';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Transfer } from '../../ledger/index.ts';
import { isMessageKey, type NotificationMessageKey, renderMessage } from './messages.ts';

export type NotificationKind = 'registration' | 'money_in' | 'money_out' | 'new_device';

export async function notify(
  q: Queryable,
  userId: string,
  kind: NotificationKind,
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
};
const IN_KEYS: Partial<Record<Transfer['kind'], NotificationMessageKey>> = {
  topup: 'money_in_topup',
  transfer: 'money_in_transfer',
  refund: 'money_in_refund',
};

/** Which side of a movement hears of it (the owner of that account; system accounts hear nothing). */
export interface MoneyNote {
  side: 'debit' | 'credit';
  kind: NotificationKind;
  messageKey: NotificationMessageKey;
}

/**
 * The notifications of a ledger movement by phase: a transfer tells both sides, a hold tells the
 * payer (the money has left), its posting tells the payee, its release tells the payer the money is
 * back. The ledger writes them in the movement's own statement (ledger_write_entries), with the
 * transfer's amount and currency as parameters, so they cost no round trip of their own.
 */
export function moneyMovementNotes(
  kind: Transfer['kind'],
  phase: 'single' | 'hold' | 'post' | 'void',
): MoneyNote[] {
  const out: MoneyNote = { side: 'debit', kind: 'money_out', messageKey: OUT_KEYS[kind] ?? 'money_out' };
  const into: MoneyNote = { side: 'credit', kind: 'money_in', messageKey: IN_KEYS[kind] ?? 'money_in' };
  switch (phase) {
    case 'single':
      return [out, into];
    case 'hold':
      return [out];
    case 'post':
      return [into];
    case 'void':
      return [{ side: 'debit', kind: 'money_in', messageKey: 'money_returned' }];
  }
}

// ---------- reading ----------

export interface NotificationView {
  id: string;
  created_at: string;
  message: string;
  kind: string;
  is_read: boolean;
}

interface NotificationRow {
  id: string;
  kind: string;
  message_key: string;
  params: Record<string, string>;
  created_at: Date;
  read_at: Date | null;
}

function render(row: NotificationRow, language: Language): NotificationView {
  const params = { ...row.params };
  if (params.amount_minor && params.currency) {
    const currency = params.currency as CurrencyCode;
    params.amount = `${formatAmount(BigInt(params.amount_minor), currency)} ${currencySymbol(currency)}`;
  }
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    message: renderMessage(
      isMessageKey(row.message_key) ? row.message_key : row.message_key,
      params,
      language,
    ),
    kind: row.kind,
    is_read: row.read_at !== null,
  };
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime()))
    throw new AppError('FIELD_INVALID', { field: 'cursor' });
  return { createdAt, id };
}

export async function listNotifications(
  q: Queryable,
  userId: string,
  options: { cursor?: string; limit: number; language: Language },
): Promise<{ results: NotificationView[]; next: string | null; unread: number }> {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const { rows } = await q.query<NotificationRow>(
    `SELECT id, kind, message_key, params, created_at, read_at FROM notifications
     WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [userId, after?.createdAt ?? null, after?.id ?? null, options.limit + 1],
  );
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1];
  const next = rows.length > options.limit && last ? encodeCursor(last.created_at, last.id) : null;
  const { rows: counts } = await q.query<{ unread: number }>(
    'SELECT count(*)::int AS unread FROM notifications WHERE user_id = $1 AND read_at IS NULL',
    [userId],
  );
  return { results: page.map((row) => render(row, options.language)), next, unread: counts[0]?.unread ?? 0 };
}

/** Marks the given notifications (or all) read; another user's id is NOTIFICATION_NOT_FOUND. */
export async function markRead(
  q: Queryable,
  userId: string,
  ids: string[] | undefined,
  at: Date,
): Promise<void> {
  if (ids === undefined) {
    await q.query('UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [
      userId,
      at,
    ]);
    return;
  }
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (unique.length === 0) return;
  const { rows } = await q.query<{ id: string }>(
    'SELECT id FROM notifications WHERE user_id = $1 AND id = ANY($2::uuid[])',
    [userId, unique],
  );
  if (rows.length !== unique.length) throw new AppError('NOTIFICATION_NOT_FOUND');
  await q.query(
    'UPDATE notifications SET read_at = $3 WHERE user_id = $1 AND id = ANY($2::uuid[]) AND read_at IS NULL',
    [userId, unique, at],
  );
}
