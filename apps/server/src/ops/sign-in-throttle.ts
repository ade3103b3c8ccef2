/**
 * Sign-in throttling by the client's address (docs/decisions/back-office.md, 'The back office on the app's stack'):
 * failed tries, then all tries, in a window. Both are checked before any account is read, so a stranger
 * can neither lock an operator out nor make the server do more than this; no failure locks an account.
 */
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { addressKey, hit, peek } from '../modules/limits/index.ts';

export const SIGN_IN_FAILURES = { windowSeconds: 15 * 60, max: 10 };
export const SIGN_IN_TRIES = { windowSeconds: 15 * 60, max: 40 };

/** The address's key; RATE_LIMITED once it failed or tried too often, before anything else is read. */
export async function throttle(ctx: AppContext, address: string): Promise<string> {
  const now = ctx.clock.now();
  const key = addressKey(address);
  const failed = await peek(ctx.db, `ops-sign-in-failed:${key}`, SIGN_IN_FAILURES.windowSeconds, now);
  if (failed.count >= SIGN_IN_FAILURES.max) throw new AppError('RATE_LIMITED');
  const tried = await hit(ctx.db, `ops-sign-in:${key}`, SIGN_IN_TRIES.windowSeconds, SIGN_IN_TRIES.max, now);
  if (!tried.allowed) throw new AppError('RATE_LIMITED');
  return key;
}

export async function countFailure(q: Queryable, ctx: AppContext, key: string): Promise<void> {
  await hit(q, `ops-sign-in-failed:${key}`, SIGN_IN_FAILURES.windowSeconds, 1_000_000, ctx.clock.now());
}
