/**
 * The date-range picker's calendar (date-range-picker.tsx), loaded when the picker first opens or is
 * about to: the day picker and its locales were most of the history page's first load beyond the
 * budget (docs/performance.md, 'The first load of /history').
 */
import 'react-day-picker/style.css';
import './date-range-picker.css';
import { DayPicker } from 'react-day-picker';
import { enGB } from 'react-day-picker/locale/en-GB';
import { ru } from 'react-day-picker/locale/ru';
import type { Language } from '../i18n/i18n.ts';
import { isDisabledDay, pickDay, type RangeDraft } from '../money/date-range.ts';

export interface RangeCalendarProps {
  language: Language;
  month: Date;
  onMonthChange: (month: Date) => void;
  now: Date;
  draft: RangeDraft;
  onDraft: (update: (current: RangeDraft) => RangeDraft) => void;
}

export default function RangeCalendar({
  language,
  month,
  onMonthChange,
  now,
  draft,
  onDraft,
}: RangeCalendarProps) {
  return (
    <DayPicker
      mode="range"
      locale={language === 'ru' ? ru : enGB}
      weekStartsOn={1}
      fixedWeeks
      showOutsideDays
      month={month}
      onMonthChange={onMonthChange}
      endMonth={now}
      selected={{ from: draft.start, to: draft.end }}
      disabled={(day: Date) => isDisabledDay(day, now)}
      onSelect={(_range, day) => onDraft((current) => pickDay(current, day, now))}
    />
  );
}
