import { clsx } from 'clsx';

/** A segmented progress bar: one segment per step, filled up to the current one. */
export function ProgressSteps({ step, total, label }: { step: number; total: number; label: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuemin={1}
      aria-valuemax={total}
      aria-valuenow={step}
      aria-valuetext={label}
      aria-label={label}
    >
      {Array.from({ length: total }, (_, index) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positions, never reordered
          key={index}
          className={clsx('progress__segment', index < step && 'progress__segment--done')}
        />
      ))}
    </div>
  );
}
