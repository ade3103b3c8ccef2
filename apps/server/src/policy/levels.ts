/**
 * Identification levels (docs/decisions/identification-and-limits.md#identification-levels, after Federal Law
 * 161-FZ art. 10): the figures of each level. Amounts are RUB minor units. The defaults can be overridden
 * with the
 * IDENTIFICATION_LIMITS setting (JSON of the same shape, in roubles), validated at start.
 * The rules themselves (what a figure allows, how money is counted) are decided by the database
 * (db/functions/limits.sql), which gets these figures with every call as `levelRulesJson`.
 */
import { formatAmount, type MoneyParam } from '@e-wallet/contract';
import { z } from 'zod';

export const LEVELS = ['anonymous', 'simplified', 'full'] as const;
export type LevelName = (typeof LEVELS)[number];

export interface LevelRules {
  /** Largest total balance across the user's accounts, RUB minor units. */
  balanceMax: bigint;
  /** Largest outgoing sum per calendar month, RUB minor units; null for no limit. */
  monthlyOutgoingMax: bigint | null;
  topup: boolean;
  withdrawal: boolean;
  /** Transfers to other people; payments to merchants (QR) are allowed at every level. */
  transfer: boolean;
  /** Exchange between one's own accounts (docs/decisions/exchange.md#exchange-between-ones-own-accounts). */
  exchange: boolean;
}

const rub = (roubles: number) => BigInt(roubles) * 100n;

export const DEFAULT_LEVEL_RULES: Record<LevelName, LevelRules> = {
  anonymous: {
    balanceMax: rub(15_000),
    monthlyOutgoingMax: rub(40_000),
    topup: true,
    withdrawal: false,
    transfer: false,
    exchange: false,
  },
  simplified: {
    balanceMax: rub(60_000),
    monthlyOutgoingMax: rub(200_000),
    topup: true,
    withdrawal: true,
    transfer: true,
    exchange: true,
  },
  full: {
    balanceMax: rub(600_000),
    monthlyOutgoingMax: null,
    topup: true,
    withdrawal: true,
    transfer: true,
    exchange: true,
  },
};

const LevelOverride = z.strictObject({
  balance_max: z.number().int().positive().optional(),
  monthly_outgoing_max: z.number().int().positive().nullable().optional(),
  topup: z.boolean().optional(),
  withdrawal: z.boolean().optional(),
  transfer: z.boolean().optional(),
  exchange: z.boolean().optional(),
});
export const LevelOverrides = z.strictObject({
  anonymous: LevelOverride.optional(),
  simplified: LevelOverride.optional(),
  full: LevelOverride.optional(),
});

/** The figures in force: the defaults with the configured overrides applied. */
export function levelRules(overridesJson?: string): Record<LevelName, LevelRules> {
  return overridesJson ? withOverrides(overridesJson) : DEFAULT_LEVEL_RULES;
}

/** The figures as the database's limits take them (db/functions/limits.sql): amounts as text. */
export function levelRulesJson(rules: Record<LevelName, LevelRules>): string {
  return JSON.stringify(
    Object.fromEntries(
      LEVELS.map((level) => {
        const r = rules[level];
        return [
          level,
          {
            balance_max: r.balanceMax.toString(),
            monthly_outgoing_max: r.monthlyOutgoingMax === null ? null : r.monthlyOutgoingMax.toString(),
            topup: r.topup,
            withdrawal: r.withdrawal,
            transfer: r.transfer,
            exchange: r.exchange,
          },
        ];
      }),
    ),
  );
}

/** A RUB amount for an error's message, written in the reader's language (the contract's MoneyParam). */
export function rubParam(minor: bigint): MoneyParam {
  return { amount: formatAmount(minor, 'RUB'), currency: 'RUB' };
}

function withOverrides(overridesJson: string): Record<LevelName, LevelRules> {
  const overrides = LevelOverrides.parse(JSON.parse(overridesJson));
  const rules = { ...DEFAULT_LEVEL_RULES };
  for (const level of LEVELS) {
    const o = overrides[level];
    if (!o) continue;
    rules[level] = {
      balanceMax: o.balance_max !== undefined ? rub(o.balance_max) : rules[level].balanceMax,
      monthlyOutgoingMax:
        o.monthly_outgoing_max === undefined
          ? rules[level].monthlyOutgoingMax
          : o.monthly_outgoing_max === null
            ? null
            : rub(o.monthly_outgoing_max),
      topup: o.topup ?? rules[level].topup,
      withdrawal: o.withdrawal ?? rules[level].withdrawal,
      transfer: o.transfer ?? rules[level].transfer,
      exchange: o.exchange ?? rules[level].exchange,
    };
  }
  return rules;
}

/** The level above, or null at the top. */
export function nextLevel(level: LevelName): LevelName | null {
  const index = LEVELS.indexOf(level);
  return LEVELS[index + 1] ?? null;
}
