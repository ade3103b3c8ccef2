/**
 * Statistics by transaction type
 * (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features): each type has its own label
 * and colour, and the chart is drawn from the same entries as the list. The server's percents are whole
 * numbers that add up to 100 (or all zero when nothing moved).
 */
export type StatType = 'topup' | 'withdrawal' | 'payment' | 'transfer' | 'exchange' | 'savings' | 'other';

export interface StatLegend {
  type: StatType;
  /** The i18n key of the label: 'Пополнения', 'Выводы', 'Платежи', 'Переводы', 'Обмен', 'Прочее'. */
  labelKey: `stats.types.${StatType}`;
  tone: 'green' | 'red' | 'yellow' | 'purple' | 'teal' | 'pink' | 'blue';
  /** Chart colour (matches the tone's CSS variable). */
  color: string;
}

export const STAT_LEGEND: Record<StatType, StatLegend> = {
  topup: { type: 'topup', labelKey: 'stats.types.topup', tone: 'green', color: '#1f9d63' },
  withdrawal: { type: 'withdrawal', labelKey: 'stats.types.withdrawal', tone: 'red', color: '#d9403a' },
  payment: { type: 'payment', labelKey: 'stats.types.payment', tone: 'yellow', color: '#e7a614' },
  transfer: { type: 'transfer', labelKey: 'stats.types.transfer', tone: 'purple', color: '#7a4dff' },
  exchange: { type: 'exchange', labelKey: 'stats.types.exchange', tone: 'teal', color: '#0e8a9a' },
  // Money moved into one's savings goal is one's own, apart from spending (not 'Прочее').
  savings: { type: 'savings', labelKey: 'stats.types.savings', tone: 'pink', color: '#c2418f' },
  other: { type: 'other', labelKey: 'stats.types.other', tone: 'blue', color: '#2f6bff' },
};

export const STAT_ORDER: StatType[] = [
  'topup',
  'withdrawal',
  'payment',
  'transfer',
  'exchange',
  'savings',
  'other',
];

export interface StatEntryLike {
  wallet_transaction_type: StatType;
  amount: string;
  percent: number;
}

/** The entries in the fixed order of the tiles, every type present (a missing one counts as zero). */
export function orderedStats<E extends StatEntryLike>(
  entries: E[],
): (E | (StatEntryLike & { missing: true }))[] {
  return STAT_ORDER.map(
    (type) =>
      entries.find((entry) => entry.wallet_transaction_type === type) ?? {
        wallet_transaction_type: type,
        amount: '0.00',
        percent: 0,
        missing: true as const,
      },
  );
}

export interface ChartSegment {
  type: StatType;
  color: string;
  percent: number;
  /** Offset along the ring, in percent of its length, where the segment starts. */
  offset: number;
}

/** Ring segments for an SVG donut: one per type with a share, laid end to end. Empty when nothing moved. */
export function chartSegments(entries: StatEntryLike[]): ChartSegment[] {
  const segments: ChartSegment[] = [];
  let offset = 0;
  for (const entry of orderedStats(entries)) {
    const percent = Math.max(0, Math.min(100, Math.round(entry.percent)));
    if (percent === 0) continue;
    const type = entry.wallet_transaction_type;
    segments.push({ type, color: STAT_LEGEND[type].color, percent, offset });
    offset += percent;
  }
  return segments;
}
