/**
 * The code resend cooldown as the server keeps it (a new code no sooner than 60 seconds after the
 * last; earlier asks answer CODE_RESEND_TOO_SOON with the seconds left): the seconds to count down.
 */
import type { ErrorAnswer } from '../api/api-error.ts';

export const RESEND_AFTER_SECONDS = 60;

/** Seconds to wait after an answer: its `resend_after`, the refusal's seconds, or the full minute. */
export function resendWait(answer: { resend_after?: number } | ErrorAnswer | null): number {
  if (answer && 'code' in answer) {
    if (answer.code !== 'CODE_RESEND_TOO_SOON') return 0;
    const seconds = /(\d+)/.exec(answer.message)?.[1];
    return seconds ? Number(seconds) : RESEND_AFTER_SECONDS;
  }
  return answer?.resend_after ?? RESEND_AFTER_SECONDS;
}
