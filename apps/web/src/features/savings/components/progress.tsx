/** A goal's or a budget's progress bar, and the words of a refused savings call. */
import { ApiError } from '../../../shared/api/api-error.ts';

/** The server's words on a refused call, or the fallback when it sent none. */
export function problemOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.answer ? error.answer.message : fallback;
}

export function Progress({ percent, label, over }: { percent: number; label: string; over?: boolean }) {
  return (
    <div
      className={`savings-progress${over ? ' savings-progress--over' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(100, percent)}
    >
      {/* An SVG's width attribute, not a style: the CSP allows no styles written at run time. */}
      <svg
        className="savings-progress__svg"
        viewBox="0 0 100 8"
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        <rect className="savings-progress__track" width="100" height="8" rx="4" />
        <rect className="savings-progress__bar" width={Math.min(100, percent)} height="8" rx="4" />
      </svg>
    </div>
  );
}
