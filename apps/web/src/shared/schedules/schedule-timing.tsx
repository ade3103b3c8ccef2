/**
 * When a schedule runs
 * (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers), as both its
 * forms ask it: a scheduled transfer's and a savings goal's regular deposit
 * (docs/decisions/managing-money.md#managing-money-categories-budgets-goals). Every week or month, the first
 * run on Moscow's wall clock, and an optional last day that still runs.
 */
import './schedule-timing.css';
import type { BodyOf } from '@e-wallet/contract';
import { fromWalletClock, walletClock } from '@e-wallet/contract/time';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../ui/select-field.tsx';
import { TextField } from '../ui/text-field.tsx';

export interface ScheduleTiming {
  period: 'week' | 'month';
  /** A datetime-local value on Moscow's wall clock. */
  firstRun: string;
  /** A date, or '' for none. */
  endsAt: string;
}

/** An hour from now as the datetime-local input shows it: Moscow's wall clock, as its label says. */
export function newTiming(): ScheduleTiming {
  const inAnHour = walletClock(new Date(Date.now() + 3600_000))
    .slice(0, 16)
    .replace(' ', 'T');
  return { period: 'month', firstRun: inAnHour, endsAt: '' };
}

export function timingBody(
  timing: ScheduleTiming,
): Pick<BodyOf<'scheduleCreate'>, 'period' | 'first_run_at' | 'ends_at'> {
  return {
    period: timing.period,
    first_run_at: fromWalletClock(timing.firstRun).toISOString(),
    // The last day runs; the schedule ends after it (Moscow's wall clock, as the first run's).
    ...(timing.endsAt ? { ends_at: fromWalletClock(`${timing.endsAt}T23:59`).toISOString() } : {}),
  };
}

export interface ScheduleTimingLabels {
  firstRun: string;
  endsAt: string;
  endsAtHint: string;
}

export function ScheduleTimingFields({
  value,
  onChange,
  labels,
}: {
  value: ScheduleTiming;
  onChange: (next: ScheduleTiming) => void;
  labels: ScheduleTimingLabels;
}) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        label={t('schedules.period')}
        value={value.period}
        onChange={(period) => onChange({ ...value, period })}
        options={[
          { value: 'month', label: t('schedules.month') },
          { value: 'week', label: t('schedules.week') },
        ]}
      />
      <TextField
        className="schedule-timing__field"
        label={labels.firstRun}
        type="datetime-local"
        value={value.firstRun}
        onChange={(event) => onChange({ ...value, firstRun: event.target.value })}
      />
      <TextField
        className="schedule-timing__field"
        label={labels.endsAt}
        hint={labels.endsAtHint}
        type="date"
        value={value.endsAt}
        min={value.firstRun.slice(0, 10)}
        onChange={(event) => onChange({ ...value, endsAt: event.target.value })}
      />
    </>
  );
}
