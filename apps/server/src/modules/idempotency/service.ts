/**
 * Idempotency of money-moving calls (docs/decisions.md section 4, TigerBeetle's reliable submission):
 * the client makes an Idempotency-Key and keeps it for every retry; the first successful answer is
 * stored in the same transaction as the money it moved, so a repeat returns that answer and moves
 * nothing, and the same key with a different request is IDEMPOTENCY_CONFLICT.
 *
 *   const answer = await withIdempotency(ctx, {
 *     userId, call: 'withdrawal', key: call.idempotencyKey, requestHash: requestHash(ctx, call.body),
 *   }, async (q) => { ...ledger calls on q...; return answer; });
 *
 * Concurrent repeats on PostgreSQL: the key's row is inserted first, so a second transaction with the
 * same key waits on it, then reads the committed answer. A failed call (an AppError) stores nothing:
 * retrying it runs again. Without a key (`key: null`) the work just runs in one transaction.
 *
 * A person's payments claim their key inside the ledger's payment statement instead (`pay`,
 * db/functions/payments.sql), with the answer they will give, and answer a repeat with `repeatedAnswer`.
 */
import { createHmac } from 'node:crypto';
import type { CallName } from '@e-wallet/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The fingerprint of a request: an HMAC keyed with a server secret, because requests carry card
 * numbers. How the operation was confirmed (the PIN or a passkey's answer, new on every try) is not
 * part of it: a repeat confirmed afresh is still the same operation (docs/decisions.md section 11).
 */
export function requestHash(ctx: Pick<AppContext, 'config'>, request: unknown): string {
  const operation =
    request && typeof request === 'object' ? { ...request, pin: undefined, passkey: undefined } : request;
  return createHmac('sha256', `idempotency:${ctx.config.PIN_KEY}`)
    .update(canonical(operation))
    .digest('base64url');
}

export interface IdempotencyScope {
  userId: string;
  call: CallName;
  /** The Idempotency-Key header, or null when the client sent none. */
  key: string | null;
  requestHash: string;
}

/** A key's row as stored: the first request's fingerprint and the answer it got. */
export interface StoredAnswer<T> {
  request_hash: string;
  answer: T | null;
}

/** The answer to a repeated key: the first answer, or IDEMPOTENCY_CONFLICT for a different request. */
export function repeatedAnswer<T>(scope: IdempotencyScope, first: StoredAnswer<T> | undefined): T {
  if (!first || first.request_hash !== scope.requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
  if (first.answer === null) throw new Error('idempotency key without an answer');
  return first.answer;
}

export async function withIdempotency<T>(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  scope: IdempotencyScope,
  work: (q: Queryable) => Promise<T>,
): Promise<T> {
  const { key } = scope;
  if (key === null) return ctx.db.tx(work);
  return ctx.db.tx(async (q) => {
    const claimed = await q.query(
      `INSERT INTO idempotency_keys (user_id, call, key, request_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, call, key) DO NOTHING RETURNING key`,
      [scope.userId, scope.call, key, scope.requestHash, ctx.clock.now()],
    );
    if (claimed.rows.length === 0) {
      const { rows } = await q.query<StoredAnswer<T>>(
        'SELECT request_hash, answer FROM idempotency_keys WHERE user_id = $1 AND call = $2 AND key = $3',
        [scope.userId, scope.call, key],
      );
      return repeatedAnswer(scope, rows[0]);
    }
    const answer = await work(q);
    await q.query(
      'UPDATE idempotency_keys SET answer = $4::jsonb WHERE user_id = $1 AND call = $2 AND key = $3',
      [scope.userId, scope.call, key, JSON.stringify(answer)],
    );
    // The first caller gets what every repeat will get: the stored JSON.
    return JSON.parse(JSON.stringify(answer)) as T;
  });
}
