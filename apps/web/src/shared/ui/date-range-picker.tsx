/**
 * The date-range picker (docs/product.md 'History', docs/product.md#validation-rules and
 * docs/product.md#business-constants-and-limits): hidden until asked for; start and end days with Russian
 * month names; presets Today to Last Year; a 6-week calendar; cancel and apply. A start after the end is
 * swapped and future days cannot be picked (money/date-range.ts).
 */
import './money-ui.css';
import './date-range-picker.css';
import { clsx } from 'clsx';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDayRange, formatPickedDay } from '../format/date-range-text.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { type DayRange, presetOf, presetRange, RANGE_PRESETS, type RangeDraft } from '../money/date-range.ts';
import { CalendarIcon, ChevronRightIcon } from './money-icons.tsx';

const loadCalendar = () => import('./date-range-calendar.tsx');
const RangeCalendar = lazy(loadCalendar);

export interface DateRangePickerProps {
  value: DayRange;
  onChange: (range: DayRange) => void;
  /** "Now", for tests; defaults to the clock. */
  now?: Date;
}

export function DateRangePicker({ value, onChange, now: fixedNow }: DateRangePickerProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<RangeDraft>({ start: value.from, end: value.to, picking: 'start' });
  const [month, setMonth] = useState(value.to);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const now = fixedNow ?? new Date();

  const openPicker = () => {
    setDraft({ start: value.from, end: value.to, picking: 'start' });
    setMonth(value.to);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  const apply = () => {
    onChange({ from: draft.start, to: draft.end });
    close();
  };

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [open]);

  const activePreset = presetOf({ from: draft.start, to: draft.end }, now);

  return (
    <div className="range-picker">
      <button
        ref={toggleRef}
        type="button"
        className="range-picker__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close() : openPicker())}
        // The calendar's code starts loading as the pointer or the keyboard reaches the toggle.
        onPointerEnter={() => void loadCalendar()}
        onFocus={() => void loadCalendar()}
        data-testid="range-toggle"
      >
        <CalendarIcon />
        <span className="visually-hidden">{t('range.label')}: </span>
        <span className="range-picker__value">{formatDayRange(value, language)}</span>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        className="range-picker__panel"
        role="dialog"
        aria-label={t('range.label')}
        hidden={!open}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            close();
          }
        }}
      >
        {open && (
          <>
            <div className="range-picker__bounds">
              <div className={clsx('range-picker__bound', draft.picking === 'start' && 'is-picking')}>
                <span className="range-picker__bound-label">{t('range.start')}</span>
                <span className="range-picker__bound-value" data-testid="range-start">
                  {formatPickedDay(draft.start, language)}
                </span>
              </div>
              <ChevronRightIcon className="range-picker__arrow" />
              <div className={clsx('range-picker__bound', draft.picking === 'end' && 'is-picking')}>
                <span className="range-picker__bound-label">{t('range.end')}</span>
                <span className="range-picker__bound-value" data-testid="range-end">
                  {formatPickedDay(draft.end, language)}
                </span>
              </div>
            </div>
            <div className="range-picker__body">
              <fieldset className="range-picker__presets">
                <legend className="visually-hidden">{t('range.presets')}</legend>
                {RANGE_PRESETS.map((preset, index) => (
                  <button
                    key={preset}
                    type="button"
                    className="range-picker__preset"
                    aria-pressed={activePreset === preset}
                    data-autofocus={index === 0 ? true : undefined}
                    onClick={() => {
                      const range = presetRange(preset, now);
                      setDraft({ start: range.from, end: range.to, picking: 'start' });
                      setMonth(range.to);
                    }}
                  >
                    {t(`range.names.${preset}`)}
                  </button>
                ))}
              </fieldset>
              <div className="range-picker__calendar">
                <p className="range-picker__hint" aria-live="polite">
                  {draft.picking === 'start' ? t('range.pickStart') : t('range.pickEnd')}
                </p>
                <Suspense fallback={<div className="range-picker__calendar-wait" aria-busy="true" />}>
                  <RangeCalendar
                    language={language}
                    month={month}
                    onMonthChange={setMonth}
                    now={now}
                    draft={draft}
                    onDraft={setDraft}
                  />
                </Suspense>
              </div>
            </div>
            <div className="range-picker__actions">
              <button type="button" className="button button--ghost" onClick={close}>
                {t('range.cancel')}
              </button>
              <button type="button" className="button button--primary" onClick={apply}>
                {t('range.apply')}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
