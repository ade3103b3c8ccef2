/**
 * Idempotency of money calls (docs/decisions/api.md#the-api, TigerBeetle's reliable submission): the
 * client makes an Idempotency-Key and keeps it for every retry. There is one store, `idempotency_keys`,
 * behind one pair of SQL functions (db/functions/idempotency.sql): `idempotency_claim` stores the key
 * with the call's fingerprint and its answer (or, for a payment whose transfer holds its receipt, what
 * makes it again: `KeptAnswer` in pipeline.ts), made before the work, in the transaction that does the
 * work; `idempotency_release` gives a refused call's key back. A repeat gets the stored answer and
 * does nothing; the same key with a different request is IDEMPOTENCY_CONFLICT. No module reads the
 * table: a door claims inside its statement (door_claim, payments.sql), every other keyed call through
 * `keyedCall`. A ledger transfer keeps no key of its own: ledger_open makes its id of its key.
 */
import { createHmac } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { MoneyCallName } from '../../ledger/index.ts';

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
 * part of it: a repeat confirmed afresh is still the same operation
 * (docs/decisions/money-calls.md#money-confirmed-with-the-pin-or-a-passkey).
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
  call: MoneyCallName;
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
export function repeatedAnswer<T>(
  scope: Pick<IdempotencyScope, 'requestHash'>,
  first: StoredAnswer<T> | undefined,
): T {
  if (!first || first.request_hash !== scope.requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
  if (first.answer === null) throw new Error('idempotency key without an answer');
  return first.answer;
}

/** The key's claim, in the caller's transaction: claimed, or the first call's fingerprint and answer. */
export async function claimKey<T>(
  q: Queryable,
  scope: IdempotencyScope,
  answer: T,
  at: Date,
): Promise<{ claimed: true } | { claimed: false; first: StoredAnswer<T> }> {
  const { rows } = await q.query<{ claimed: boolean; first_request_hash: string; first_answer: T | null }>(
    'SELECT claimed, first_request_hash, first_answer FROM idempotency_claim($1, $2, $3, $4, $5::jsonb, $6)',
    [scope.userId, scope.call, scope.key, scope.requestHash, JSON.stringify(answer), at],
  );
  const row = rows[0]!;
  if (row.claimed) return { claimed: true };
  return { claimed: false, first: { request_hash: row.first_request_hash, answer: row.first_answer } };
}

/**
 * A keyed call that no door claims for (a top-up's order): the key claimed with `answer`, then `work`,
 * in one transaction; a failed call (an AppError) rolls the claim back with the rest, so retrying it runs
 * again. Concurrent repeats on PostgreSQL wait on the first's key, then read its committed answer.
 * Without a key (`key: null`) the work just runs in one transaction.
 */
export async function keyedCall<T>(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  scope: IdempotencyScope,
  answer: T,
  work: (q: Queryable) => Promise<void>,
): Promise<T> {
  return ctx.db.tx(async (q) => {
    if (scope.key !== null) {
      const claim = await claimKey(q, scope, answer, ctx.clock.now());
      if (!claim.claimed) return repeatedAnswer(scope, claim.first);
    }
    await work(q);
    // The first caller gets what every repeat will get: the stored JSON.
    return JSON.parse(JSON.stringify(answer)) as T;
  });
}
