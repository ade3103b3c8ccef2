/**
 * Removes what the sign-up and sign-in rules no longer need: rate-limit keys whose hits have all
 * left their window, codes long past their lifetime and cooldown, and registrations abandoned for a
 * day. Safe from any instance at any time; the send path runs it now and then, so no scheduler is needed.
 */
import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { purgeExpired } from '../limits/index.ts';

const HOUR_MS = 3_600_000;
export const ABANDONED_REGISTRATION_MS = 24 * HOUR_MS;
/** One send in this many also sweeps. */
const SWEEP_ONE_IN = 50;

export async function sweepExpired(
  ctx: AppContext,
): Promise<{ rateLimits: number; codes: number; registrations: number }> {
  const now = ctx.clock.now();
  const rateLimits = await purgeExpired(ctx.db, now);
  const codes = await ctx.db.query('DELETE FROM auth_codes WHERE expires_at <= $1', [
    new Date(now.getTime() - HOUR_MS),
  ]);
  const registrations = await ctx.db.query(
    `DELETE FROM pending_registrations p WHERE p.updated_at <= $1
       AND NOT EXISTS (SELECT 1 FROM auth_codes c WHERE c.phone = p.phone AND c.expires_at > $2)`,
    [new Date(now.getTime() - ABANDONED_REGISTRATION_MS), now],
  );
  // Attempts go by the same rule, for numbers with a wallet and without alike.
  await ctx.db.query(
    `DELETE FROM registration_attempts a WHERE a.updated_at <= $1
       AND NOT EXISTS (SELECT 1 FROM auth_codes c WHERE c.phone = a.phone AND c.expires_at > $2)`,
    [new Date(now.getTime() - ABANDONED_REGISTRATION_MS), now],
  );
  return { rateLimits, codes: codes.rowCount, registrations: registrations.rowCount };
}

/** Sweeps on a random one in SWEEP_ONE_IN calls; a failed sweep is harmless and retried later. */
export async function maybeSweep(ctx: AppContext): Promise<void> {
  if (randomInt(SWEEP_ONE_IN) !== 0) return;
  await sweepExpired(ctx).catch(() => {});
}
