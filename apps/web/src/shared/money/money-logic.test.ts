import { describe, expect, it } from 'vitest';
import { CAROUSEL, emblaDuration, emblaOptions, slideWidth } from './carousel-config.ts';
import {
  isDisabledDay,
  normalizeRange,
  pickDay,
  presetOf,
  presetRange,
  RANGE_PRESETS,
  rangeQuery,
} from './date-range.ts';
import { chartSegments, orderedStats, STAT_LEGEND } from './stat-display.ts';
import { signPrefix, transactionLook } from './transaction-display.ts';

describe('transaction display by sign (docs/product.md#states-and-transitions)', () => {
  it('zero is an operation without a sign', () => {
    for (const amount of ['0.00', '0', '-0.00', '+0.00']) {
      expect(transactionLook(amount)).toBe('operation');
      expect(signPrefix(amount)).toBe('');
    }
  });
  it('negative is a withdrawal with -', () => {
    expect(transactionLook('-0.01')).toBe('withdrawal');
    expect(signPrefix('-1500.00')).toBe('-');
  });
  it('positive is a topup with +', () => {
    expect(transactionLook('0.01')).toBe('topup');
    expect(transactionLook('9007199254740993.99')).toBe('topup');
    expect(signPrefix('20.50')).toBe('+');
  });
});

// Sunday 22 November 2026, 16:05 local time.
const now = new Date(2026, 10, 22, 16, 5);
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);
const endOf = (y: number, m: number, d: number) => new Date(y, m - 1, d, 23, 59, 59, 999);

describe('date-range presets', () => {
  it('covers the eight presets of docs/product.md#business-constants-and-limits', () => {
    expect(RANGE_PRESETS).toEqual([
      'today',
      'yesterday',
      'thisWeek',
      'lastWeek',
      'thisMonth',
      'lastMonth',
      'thisYear',
      'lastYear',
    ]);
  });
  it('answers whole local days, weeks from Monday, current periods up to today', () => {
    expect(presetRange('today', now)).toEqual({ from: day(2026, 11, 22), to: endOf(2026, 11, 22) });
    expect(presetRange('yesterday', now)).toEqual({ from: day(2026, 11, 21), to: endOf(2026, 11, 21) });
    expect(presetRange('thisWeek', now)).toEqual({ from: day(2026, 11, 16), to: endOf(2026, 11, 22) });
    expect(presetRange('lastWeek', now)).toEqual({ from: day(2026, 11, 9), to: endOf(2026, 11, 15) });
    expect(presetRange('thisMonth', now)).toEqual({ from: day(2026, 11, 1), to: endOf(2026, 11, 22) });
    expect(presetRange('lastMonth', now)).toEqual({ from: day(2026, 10, 1), to: endOf(2026, 10, 31) });
    expect(presetRange('thisYear', now)).toEqual({ from: day(2026, 1, 1), to: endOf(2026, 11, 22) });
    expect(presetRange('lastYear', now)).toEqual({ from: day(2025, 1, 1), to: endOf(2025, 12, 31) });
  });
  it('handles the turn of a year', () => {
    const newYear = new Date(2027, 0, 1, 9);
    expect(presetRange('yesterday', newYear)).toEqual({ from: day(2026, 12, 31), to: endOf(2026, 12, 31) });
    expect(presetRange('lastMonth', newYear)).toEqual({ from: day(2026, 12, 1), to: endOf(2026, 12, 31) });
  });
  it('recognises a preset range', () => {
    expect(presetOf(presetRange('lastWeek', now), now)).toBe('lastWeek');
    expect(presetOf({ from: day(2026, 11, 3), to: day(2026, 11, 5) }, now)).toBeNull();
  });
});

describe('picking days', () => {
  it('swaps a start after the end', () => {
    expect(normalizeRange(day(2026, 11, 20), day(2026, 11, 2))).toEqual({
      from: day(2026, 11, 2),
      to: endOf(2026, 11, 20),
    });
    expect(normalizeRange(day(2026, 11, 2), day(2026, 11, 20))).toEqual({
      from: day(2026, 11, 2),
      to: endOf(2026, 11, 20),
    });
  });
  it('sets the start, then the end, swapping when the end is earlier', () => {
    let draft = { start: day(2026, 11, 1), end: endOf(2026, 11, 22), picking: 'start' as const };
    const first = pickDay(draft, day(2026, 11, 18), now);
    expect(first).toEqual({ start: day(2026, 11, 18), end: endOf(2026, 11, 18), picking: 'end' });
    const second = pickDay(first, day(2026, 11, 4), now);
    expect(second).toEqual({ start: day(2026, 11, 4), end: endOf(2026, 11, 18), picking: 'start' });
    draft = second as typeof draft;
    expect(pickDay(draft, day(2026, 11, 6), now).picking).toBe('end');
  });
  it('cannot pick a disabled (future) day', () => {
    expect(isDisabledDay(day(2026, 11, 23), now)).toBe(true);
    expect(isDisabledDay(new Date(2026, 10, 22, 23, 59), now)).toBe(false);
    const draft = { start: day(2026, 11, 1), end: endOf(2026, 11, 22), picking: 'end' as const };
    expect(pickDay(draft, day(2026, 11, 30), now)).toBe(draft);
  });
  it('sends the local day boundaries as instants', () => {
    const query = rangeQuery({ from: new Date(2026, 10, 3, 12), to: new Date(2026, 10, 5, 1) });
    expect(new Date(query.date_from).getTime()).toBe(day(2026, 11, 3).getTime());
    expect(new Date(query.date_to).getTime()).toBe(endOf(2026, 11, 5).getTime());
    expect(query.date_from).toMatch(/Z$/);
  });
});

describe('statistics legend and chart', () => {
  it('gives each type its own label and colour', () => {
    expect(STAT_LEGEND.topup).toMatchObject({ labelKey: 'stats.types.topup', tone: 'green' });
    expect(STAT_LEGEND.withdrawal).toMatchObject({ labelKey: 'stats.types.withdrawal', tone: 'red' });
    expect(STAT_LEGEND.payment).toMatchObject({ labelKey: 'stats.types.payment', tone: 'yellow' });
    expect(STAT_LEGEND.transfer).toMatchObject({ labelKey: 'stats.types.transfer', tone: 'purple' });
    expect(STAT_LEGEND.exchange).toMatchObject({ labelKey: 'stats.types.exchange', tone: 'teal' });
    expect(STAT_LEGEND.savings).toMatchObject({ labelKey: 'stats.types.savings', tone: 'pink' });
    expect(STAT_LEGEND.other).toMatchObject({ labelKey: 'stats.types.other', tone: 'blue' });
    const colors = new Set(Object.values(STAT_LEGEND).map((legend) => legend.color));
    expect(colors.size).toBe(7);
  });
  it('orders entries and fills missing types with zero', () => {
    const ordered = orderedStats([{ wallet_transaction_type: 'payment', amount: '5.00', percent: 100 }]);
    expect(ordered.map((entry) => entry.wallet_transaction_type)).toEqual([
      'topup',
      'withdrawal',
      'payment',
      'transfer',
      'exchange',
      'savings',
      'other',
    ]);
    expect(ordered[0]).toMatchObject({ amount: '0.00', percent: 0 });
  });
  it('lays the segments end to end over the whole ring, skipping zero shares', () => {
    const segments = chartSegments([
      { wallet_transaction_type: 'other', amount: '10.00', percent: 10 },
      { wallet_transaction_type: 'topup', amount: '60.00', percent: 60 },
      { wallet_transaction_type: 'withdrawal', amount: '30.00', percent: 30 },
      { wallet_transaction_type: 'payment', amount: '0.00', percent: 0 },
    ]);
    expect(segments.map((s) => [s.type, s.offset, s.percent])).toEqual([
      ['topup', 0, 60],
      ['withdrawal', 60, 30],
      ['other', 90, 10],
    ]);
    expect(segments.reduce((sum, s) => sum + s.percent, 0)).toBe(100);
  });
  it('draws nothing when nothing moved', () => {
    expect(chartSegments([{ wallet_transaction_type: 'topup', amount: '0.00', percent: 0 }])).toEqual([]);
  });
});

describe('carousel configuration (docs/product.md#business-constants-and-limits)', () => {
  it('has the spec numbers', () => {
    expect(CAROUSEL).toEqual({
      slidesPerView: 1.4,
      wideSlidesPerView: 2,
      wideFrom: 920,
      gap: 16,
      speedMs: 500,
      loop: false,
    });
    expect(emblaOptions.loop).toBe(false);
    expect(emblaOptions.duration).toBe(emblaDuration(500));
    expect(emblaDuration(500)).toBe(30);
  });
  it('sizes slides with the gaps inside the view', () => {
    expect(slideWidth(1.4, 16)).toBe('calc((100% - 6.4px) / 1.4)');
    expect(slideWidth(2, 16)).toBe('calc((100% - 16px) / 2)');
  });
});

describe('range text', () => {
  it('names the days with Russian month names, as short as the range allows', async () => {
    const { formatDayRange } = await import('../format/date-range-text.ts');
    expect(formatDayRange({ from: day(2026, 11, 1), to: endOf(2026, 11, 22) })).toBe('1 — 22 ноября 2026 г.');
    expect(formatDayRange({ from: day(2026, 10, 28), to: endOf(2026, 11, 3) })).toBe(
      '28 октября — 3 ноября 2026 г.',
    );
    expect(formatDayRange({ from: day(2025, 12, 30), to: endOf(2026, 1, 2) })).toBe(
      '30 декабря 2025 г. — 2 января 2026 г.',
    );
    expect(formatDayRange({ from: day(2026, 11, 22), to: endOf(2026, 11, 22) })).toBe('22 ноября 2026 г.');
  });
});
