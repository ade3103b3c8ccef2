/**
 * СБП's participants (docs/decisions/sbp.md#participants): asked of the payouts provider and kept a day per
 * server instance; when the provider cannot answer, the list kept last still serves (a day old or more),
 * and with none SBP_UNAVAILABLE. A person's recent banks come first.
 */
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { PayoutsProvider, SbpBank } from '../../providers/payouts/payouts-provider.ts';

const REFRESH_MS = 24 * 3_600_000;
/** How many of a person's recent banks lead the list. */
const RECENT = 5;
const kept = new WeakMap<PayoutsProvider, { at: number; banks: SbpBank[] }>();

export async function sbpBanks(ctx: AppContext): Promise<SbpBank[]> {
  const now = ctx.clock.now().getTime();
  const last = kept.get(ctx.payouts);
  if (last && now - last.at < REFRESH_MS) return last.banks;
  try {
    const banks = await ctx.payouts.sbpBanks();
    if (banks.length === 0) throw new Error('an empty participants list');
    kept.set(ctx.payouts, { at: now, banks });
    return banks;
  } catch (error) {
    console.warn(`СБП participants not read: ${(error as Error).message}`);
    if (last) return last.banks;
    throw new AppError('SBP_UNAVAILABLE');
  }
}

/** The participant with this id, or null when it is not one. */
export async function sbpBank(ctx: AppContext, bankId: string): Promise<SbpBank | null> {
  return (await sbpBanks(ctx)).find((bank) => bank.id === bankId) ?? null;
}

/** The participants with the person's most recently paid banks first. */
export async function banksFor(ctx: AppContext, userId: string): Promise<SbpBank[]> {
  const banks = await sbpBanks(ctx);
  const { rows } = await ctx.db.query<{ bank_id: string }>(
    `SELECT payee_details->>'bank_id' AS bank_id FROM payouts
     WHERE user_id = $1 AND destination_type = 'sbp'
     GROUP BY payee_details->>'bank_id' ORDER BY max(created_at) DESC LIMIT ${RECENT}`,
    [userId],
  );
  const recent = rows.map((row) => row.bank_id);
  const rank = (bank: SbpBank) => {
    const at = recent.indexOf(bank.id);
    return at === -1 ? recent.length : at;
  };
  return [...banks].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'ru'));
}
