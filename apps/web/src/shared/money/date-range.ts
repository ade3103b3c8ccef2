/**
 * The date-range picker's rules (docs/product.md#validation-rules and
 * docs/product.md#business-constants-and-limits): presets Today to Last Year, start and end days, an end
 * before the start swaps them, disabled days (the future) cannot be picked, and the range goes to the API as
 * instants of the person's own day boundaries.
 */
import {
  endOfDay,
  endOfMonth,
  endOfWeek,
  endOfYear,
  isAfter,
  startOfDay,
  startOfMonth,
  startOfWeek,
  startOfYear,
  subDays,
  subMonths,
  subWeeks,
  subYears,
} from 'date-fns';

export interface DayRange {
  from: Date;
  to: Date;
}

export const RANGE_PRESETS = [
  'today',
  'yesterday',
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'lastMonth',
  'thisYear',
  'lastYear',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Weeks start on Monday, as in Russia. */
const WEEK = { weekStartsOn: 1 } as const;

/**
 * A preset's days. Current periods (this week, month, year) end today, since later days are
 * disabled and hold no transactions yet.
 */
export function presetRange(preset: RangePreset, now: Date): DayRange {
  const today = startOfDay(now);
  const upToToday = (from: Date): DayRange => ({ from, to: endOfDay(today) });
  switch (preset) {
    case 'today':
      return upToToday(today);
    case 'yesterday': {
      const day = subDays(today, 1);
      return { from: day, to: endOfDay(day) };
    }
    case 'thisWeek':
      return upToToday(startOfWeek(today, WEEK));
    case 'lastWeek': {
      const day = subWeeks(today, 1);
      return { from: startOfWeek(day, WEEK), to: endOfWeek(day, WEEK) };
    }
    case 'thisMonth':
      return upToToday(startOfMonth(today));
    case 'lastMonth': {
      const day = subMonths(today, 1);
      return { from: startOfMonth(day), to: endOfMonth(day) };
    }
    case 'thisYear':
      return upToToday(startOfYear(today));
    case 'lastYear': {
      const day = subYears(today, 1);
      return { from: startOfYear(day), to: endOfYear(day) };
    }
  }
}

/** Whole days from the start of the earlier to the end of the later: a start after the end is swapped. */
export function normalizeRange(start: Date, end: Date): DayRange {
  const [first, last] = isAfter(startOfDay(start), startOfDay(end)) ? [end, start] : [start, end];
  return { from: startOfDay(first), to: endOfDay(last) };
}

/** Days after today cannot be picked. */
export function isDisabledDay(day: Date, now: Date): boolean {
  return isAfter(startOfDay(day), startOfDay(now));
}

export interface RangeDraft {
  start: Date;
  end: Date;
  /** Which bound the next click sets. */
  picking: 'start' | 'end';
}

/**
 * A click on a calendar day: the first click sets the start (and the end to the same day), the
 * second sets the end; if the end is before the start they are swapped. A disabled day changes nothing.
 */
export function pickDay(draft: RangeDraft, day: Date, now: Date): RangeDraft {
  if (isDisabledDay(day, now)) return draft;
  if (draft.picking === 'start') return { start: startOfDay(day), end: endOfDay(day), picking: 'end' };
  const range = normalizeRange(draft.start, day);
  return { start: range.from, end: range.to, picking: 'start' };
}

/** The range as the API's date_from / date_to: ISO instants of the local day boundaries. */
export function rangeQuery(range: DayRange): { date_from: string; date_to: string } {
  return { date_from: startOfDay(range.from).toISOString(), date_to: endOfDay(range.to).toISOString() };
}

/** Whether a range is exactly one preset's (to highlight the preset). */
export function presetOf(range: DayRange, now: Date): RangePreset | null {
  for (const preset of RANGE_PRESETS) {
    const candidate = presetRange(preset, now);
    if (
      candidate.from.getTime() === startOfDay(range.from).getTime() &&
      candidate.to.getTime() === endOfDay(range.to).getTime()
    )
      return preset;
  }
  return null;
}
